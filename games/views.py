from django.http import HttpResponse, JsonResponse
from django.shortcuts import render

from .errors import ServiceError
from .export import match_to_mat
from .models import Game, Match
from .verify import verify_game


def home(request):
    return render(request, "home.html")


# -- dice verification and .mat export (logic in games.verify / games.export) ---------------


def _json_error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def game_verify(request, game_id):
    """``GET /games/<id>/verify/``: the dice check of a finished game (409 while it is played)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return _json_error(404, "game_not_found", f"There is no game {game_id}.")
    try:
        return JsonResponse(verify_game(game))
    except ServiceError as exc:
        return _json_error(exc.status, exc.code, exc.message)


def match_export_mat(request, match_id):
    """``GET /matches/<id>/export.mat``: the match as a Jellyfish .mat file (GNU Backgammon imports it)."""
    match = Match.objects.select_related("white", "black").filter(pk=match_id).first()
    if match is None:
        return _json_error(404, "match_not_found", f"There is no match {match_id}.")
    try:
        text = match_to_mat(match)
    except ValueError as exc:
        return _json_error(422, "not_exportable", str(exc))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
    return response

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from . import selectors, services
from .errors import BadRequest, ServiceError
from .export import match_to_mat
from .models import Game, Match, Player
from .verify import verify_game


def home(request):
    """The lobby: live lists over ``/ws/lobby/``, the new-match form, play the computer."""
    return render(request, "home.html", {"bot_levels": _bot_levels(), "form": NEW_MATCH_DEFAULTS})


# -- dice verification and .mat export (logic in games.verify / games.export) ---------------


def _json_error(status, code, message):
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _can_view(request, match) -> bool:
    return selectors.can_view(match, _player(request), request.user)


def _not_found(kind="match"):
    return _json_error(404, f"{kind}_not_found", f"There is no such {kind}.")


def game_verify(request, game_id):
    """``GET /games/<id>/verify/``: the dice check of a finished game (409 while it is played)."""
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None or not _can_view(request, game.match):
        return _not_found("game")
    try:
        return JsonResponse(verify_game(game))
    except ServiceError as exc:
        return _json_error(exc.status, exc.code, exc.message)


def match_export_mat(request, match_id):
    """``GET /matches/<id>/export.mat``: the match as a Jellyfish .mat file (GNU Backgammon imports it)."""
    match = Match.objects.select_related("white", "black").filter(pk=match_id).first()
    if match is None or not _can_view(request, match):
        return _not_found()
    try:
        text = match_to_mat(match)
    except ValueError as exc:
        return _json_error(422, "not_exportable", str(exc))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.mat"'
    return response


# -- the browser client's pages: lobby form, waiting room, invite, game, replay, profiles ------
# Thin: reads through games.selectors, writes through games.services.

NEW_MATCH_DEFAULTS = {"length": 5, "cube_limit": 64, "clock_delay": 0, "clock_bank": 0}


def _player(request):
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


def _bot_levels() -> list:
    try:
        from .services.agents import level_names

        return level_names()
    except Exception:  # the bots are not installed (or not yet): no levels to offer
        return []


def _int(value, default, name):
    if value in (None, ""):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest("bad_option", f"{name} must be a whole number.") from None


def _aids_options(post) -> dict:
    """The form's "rated" choice (absent: the default) and "aids" (hints and tutor, unrated only)."""
    options = {"aids": post.get("aids") in ("on", "1", "true")}
    if "rated" in post:
        options["rated"] = post.get("rated") in ("on", "1", "true")
    return options


def _match_options(post) -> dict:
    """The new-match form as ``services.match_create`` keyword arguments."""
    money = post.get("kind") == "money"
    on = lambda name: post.get(name) in ("on", "1", "true")  # noqa: E731
    limit = (post.get("cube_limit") or "").strip()
    options = {
        "length": 0 if money else _int(post.get("length"), 1, "The match length"),
        "cube": on("cube"),
        "cube_limit": None if limit in ("", "0", "none") else _int(limit, 64, "The cube limit"),
        "crawford": on("crawford"),
        "clock_delay": _int(post.get("clock_delay"), 0, "The delay"),
        "clock_bank": _int(post.get("clock_bank"), 0, "The time bank"),
        "private": on("private"),
        "spectators_allowed": on("spectators"),
        **_aids_options(post),
    }
    if money:
        options.update(jacoby=on("jacoby"), beaver=on("beaver"), raccoon=on("raccoon"))
    return options


@login_required
@require_POST
def match_new(request):
    """``POST /matches/new/``: open a match (``services.match_create``), then its waiting room."""
    try:
        match = services.match_create(creator=_player(request), **_match_options(request.POST))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("match_waiting", match_id=match.pk)


def match_waiting(request, match_id):
    """``GET /matches/<id>/``: the waiting room with the invite link; a started match goes to its game."""
    match = get_object_or_404(Match.objects.select_related("white", "black"), pk=match_id)
    player = _player(request)
    if not _can_view(request, match):
        raise Http404("No such match.")
    status = selectors.match_status(match)
    if match.status != Match.OPEN and status["game"]:
        return redirect("game_page", game_id=status["game"])
    creator = player is not None and match.white_id == player.pk
    invite = request.build_absolute_uri(reverse("match_invite", args=[match.invite_code])) if creator else None
    return render(request, "waiting.html", {"match": match, "info": selectors.match_dict(match), "creator": creator,
                                            "invite": invite, "status": status})


def match_status_json(request, match_id):
    """``GET /matches/<id>/status.json``: what the waiting room polls."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not _can_view(request, match):
        return _not_found()
    return JsonResponse(selectors.match_status(match))


@require_http_methods(["GET", "POST"])
def match_invite(request, invite_code):
    """``/join/<invite code>/``: confirm on GET, ``services.match_join`` on POST, then the game."""
    match = get_object_or_404(Match.objects.select_related("white", "black"), invite_code=invite_code)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            match = services.match_join(player=_player(request), invite_code=invite_code)
        except ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("match_invite", invite_code=invite_code)
        return redirect("game_page", game_id=selectors.current_game(match).pk)
    if match.status != Match.OPEN:
        return redirect("match_waiting", match_id=match.pk)
    return render(request, "join.html", {"match": match, "info": selectors.match_dict(match),
                                         "own": _player(request) is not None and match.white_id == _player(request).pk})


@login_required
@require_POST
def match_join_public(request, match_id):
    """``POST /matches/<id>/join/``: the lobby's join button (public matches)."""
    try:
        match = services.match_join(player=_player(request), match_id=match_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game_page", game_id=selectors.current_game(match).pk)


@login_required
@require_POST
def play_computer(request):
    """``POST /play/computer/``: a match against a house bot (``services.match_vs_bot``)."""
    match_vs_bot = getattr(services, "match_vs_bot", None)
    if match_vs_bot is None:
        messages.error(request, "Playing the computer is not available yet.")
        return redirect("home")
    try:
        match = match_vs_bot(player=_player(request), level=request.POST.get("level", ""),
                             length=_int(request.POST.get("length"), 1, "The match length"),
                             **_aids_options(request.POST))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game_page", game_id=selectors.current_game(match).pk)


def _watchable_game(request, game_id):
    game = get_object_or_404(Game.objects.select_related("match", "match__white", "match__black"), pk=game_id)
    player = _player(request)
    if not selectors.can_view(game.match, player, request.user):
        raise Http404("No such game.")  # the same answer as for a game that does not exist
    return game, player


def game_page(request, game_id):
    """``GET /games/<id>/``: the board; the page's script follows the socket from there."""
    game, player = _watchable_game(request, game_id)
    color = selectors.viewer_color(game.match, player)
    boot = {
        "snapshot": {"t": "snapshot", "v": game.version, "d": selectors.game_snapshot(game, color)},
        "history": selectors.game_history(game),
        "loggedIn": player is not None,
        "exportUrl": reverse("match_export_mat", args=[game.match_id]),
    }
    return render(request, "game.html", {"game": game, "match": game.match, "boot": boot, "color": color})


def game_replay(request, game_id):
    """``GET /games/<id>/replay/``: step through a finished game."""
    game, _ = _watchable_game(request, game_id)
    return render(request, "replay.html", {"game": game, "match": game.match})


def game_replay_json(request, game_id):
    """``GET /games/<id>/replay.json``: every event with the position after it (finished games)."""
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None or not _can_view(request, game.match):
        return _not_found("game")
    if game.status != Game.FINISHED:
        return _json_error(409, "game_not_over", "A game can be replayed once it is over.")
    return JsonResponse({"game": game.pk, "match": selectors.match_dict(game.match),
                         "steps": selectors.replay_positions(game)})


def player_profile(request, player_id):
    """``GET /players/<id>/``: rating and finished matches, with replay and export links."""
    player = get_object_or_404(Player, pk=player_id)
    history = []
    visible = selectors.viewable_matches(selectors.match_history(player), _player(request), request.user)
    for match in visible[:100]:
        history.append({"match": match, "games": list(match.games.order_by("number").values_list("pk", flat=True)),
                        "color": match.color_of(player)})
    from .analysis_reads import pr_history  # noqa: PLC0415

    return render(request, "profile.html", {"profile": player, "history": history, "pr": pr_history(player)})


def leaderboard(request):
    """``GET /leaderboard/``: players by rating."""
    return render(request, "leaderboard.html", {"players": selectors.leaderboard(100)})

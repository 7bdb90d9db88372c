"""Pages and JSON of match analysis, .mat upload, hints and the tutor (thin: logic in
``games.services.analysis``, ``games.selectors.aids`` and ``games.selectors.analysis``)."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.selectors import analysis as reads
from games import conf, throttle
from games.views import bounded
from games.errors import Limited, ServiceError
from games.jsonsafe import BadInput, parse
from games.models import Analysis, Game, Match, Player
from games.selectors import aids
from games.services import analysis as service
from games.selectors.visibility import can_view_match, match_for_viewer_or_404
from games.selectors.players import player_of
from django.utils.translation import gettext


def _error(exc: ServiceError) -> JsonResponse:
    return _retry_after(JsonResponse({"error": exc.as_dict()}, status=exc.status), exc)


def _retry_after(response, exc: ServiceError):
    """A refusal by a fair-use limit says when to try again (``Retry-After``) when it is known."""
    wait = getattr(exc, "retry_after", None)
    if wait is not None:
        response["Retry-After"] = str(wait)
    return response


def _not_found(kind="analysis") -> JsonResponse:
    message = {"analysis": _("There is no such analysis."), "match": _("There is no such match."),
               "game": _("There is no such game.")}[kind]
    return JsonResponse({"error": {"code": f"{kind}_not_found", "message": message}}, status=404)


def _visible_analysis(request, analysis_id) -> Analysis:
    analysis = Analysis.objects.select_related("match", "job", "match__white", "match__black").filter(
        pk=analysis_id).first()
    if analysis is None:
        raise Http404("No such analysis.")
    if analysis.match is not None:
        if not can_view_match(request.user, analysis.match):
            raise Http404("No such analysis.")
    elif not reads.can_view_upload(analysis, player_of(request.user), request.user):
        raise Http404("No such analysis.")
    return analysis


def _payload(request, analysis: Analysis) -> dict:
    player = player_of(request.user)
    match = analysis.match
    viewer = match.color_of(player) if match is not None and player is not None else None
    may = bool(viewer) and match.status == Match.FINISHED
    return reads.analysis_json(analysis, viewer=viewer, may_reanalyse=may, may_cancel=reads.may_cancel(analysis, player))


# -- a match's analysis ---------------------------------------------------------------------------


def match_analysis_json(request, match_id):
    """``GET /matches/<id>/analysis.json``: the match's analysis (``docs/ANALYSIS.md``)."""
    try:
        match = match_for_viewer_or_404(request.user, match_id)
    except Http404:
        return _not_found("match")
    analysis = reads.latest_for_match(match)
    if analysis is None:
        if match.status != Match.FINISHED:
            return JsonResponse({"error": {"code": "match_not_over", "message": _("A match is analysed once it is over.")}},
                                status=409)
        return _not_found()
    return JsonResponse(_payload(request, analysis))


@require_http_methods(["GET", "POST"])
def match_analysis_page(request, match_id):
    """``GET /matches/<id>/analysis/``: the analysis page; ``POST`` (``depth``): a player asks for
    the analysis at another depth."""
    match = match_for_viewer_or_404(request.user, match_id)
    if request.method == "POST":
        try:
            analysis = service.analysis_request(match_id=match.pk, player=player_of(request.user),
                                                depth=request.POST.get("depth"))
        except ServiceError as exc:
            return _retry_after(render(request, "analysis.html", {
                "match": match, "error": exc.message, "error_code": exc.code,
                "json_url": reverse("match_analysis_json", args=[match.pk])}, status=exc.status), exc)
        return redirect("analysis_page", analysis_id=analysis.pk)
    return render(request, "analysis.html", {"match": match,
                                             "json_url": reverse("match_analysis_json", args=[match.pk])})


# -- one analysis (a match's at a given depth, or an uploaded file's) --------------------------------


def analysis_page(request, analysis_id):
    """``GET /analysis/<id>/``: the analysis page of one analysis."""
    analysis = _visible_analysis(request, analysis_id)
    return render(request, "analysis.html", {"match": analysis.match, "analysis": analysis,
                                             "json_url": reverse("analysis_json", args=[analysis.pk])})


def analysis_json_view(request, analysis_id):
    """``GET /analysis/<id>.json``: the same JSON as ``/matches/<id>/analysis.json``."""
    try:
        analysis = _visible_analysis(request, analysis_id)
    except Http404:
        return _not_found()
    return JsonResponse(_payload(request, analysis))


def _job_action(request, analysis_id, action):
    """A player's action on an analysis's job (retry, cancel): JSON for a script, else back to the page."""
    _visible_analysis(request, analysis_id)
    try:
        action(analysis_id=analysis_id, player=player_of(request.user))
    except ServiceError as exc:
        return _error(exc)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return redirect("analysis_page", analysis_id=analysis_id)


@require_POST
def analysis_retry(request, analysis_id):
    """``POST /analysis/<id>/retry/``: queue a failed analysis again."""
    return _job_action(request, analysis_id, service.analysis_retry)


@require_POST
def analysis_cancel(request, analysis_id):
    """``POST /analysis/<id>/cancel/``: the player who asked cancels a queued or running analysis."""
    return _job_action(request, analysis_id, service.analysis_cancel)


@login_required
@require_http_methods(["GET", "POST"])
def analysis_upload(request):
    """``/analysis/upload/``: upload a Jellyfish ``.mat`` to analyse. A file that does not
    replay is refused (422) with the line and the reason, and nothing is stored."""
    if request.method == "GET":
        return render(request, "analysis_upload.html", {"depths": service.DEPTHS, "depth": service.default_depth()})
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise service.MatRefused("no_file", gettext("Choose a .mat file to upload."), None)
        if upload.size > service.MAX_UPLOAD_BYTES:
            raise service.MatRefused("file_too_large", gettext("A .mat file is at most %(kb)s KB.")
                                     % {"kb": service.MAX_UPLOAD_BYTES // 1024}, None)
        analysis = service.analysis_upload(player=player_of(request.user), text=upload.read(),
                                           depth=request.POST.get("depth") or None,
                                           side=request.POST.get("side", ""))
    except ServiceError as exc:
        return _retry_after(render(request, "analysis_upload.html", {
            "depths": service.DEPTHS, "depth": service.default_depth(), "error": exc.as_dict()},
            status=exc.status), exc)
    return redirect("analysis_page", analysis_id=analysis.pk)


# -- hints and the tutor (unrated play only) ------------------------------------------------------------
# Async views: the database part runs in Django's thread for sync code, the computation in the
# bounded pool of hint threads (games/views/bounded.py) within GAMES_HINT_BUDGET seconds, so a flood
# of hints never holds the thread every other page of this process waits on. Each player has
# GAMES_HINT_LIMIT hints and tutor checks per GAMES_HINT_WINDOW seconds (429 hint_limit).


def _game_for_player(request, game_id):
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None or not can_view_match(request.user, game.match):
        return None
    return game


def _aid_job(request, game_id, make):
    """The sync part of a hint or a tutor check: who asks, the limit, the checks. Returns the
    computation, or the response that refuses it."""
    if _game_for_player(request, game_id) is None:
        return _not_found("game")
    player = player_of(request.user)
    try:
        if player is not None:
            wait = throttle.hit(f"hint:{player.pk}", int(conf.value("GAMES_HINT_LIMIT")),
                                float(conf.value("GAMES_HINT_WINDOW")))
            if wait is not None:
                raise Limited("hint_limit", gettext("Too many hints: you may ask for %(value)s every %(value2)s s. Try again in %(wait)s s.")
                        % {"value": conf.value('GAMES_HINT_LIMIT'), "value2": format(float(conf.value('GAMES_HINT_WINDOW')), '.0f'), "wait": wait},
                              retry_after=wait)
        return make(player)
    except ServiceError as exc:
        return _error(exc)


async def _aid(request, game_id, make):
    job = await sync_to_async(_aid_job)(request, game_id, make)
    if isinstance(job, JsonResponse):
        return job
    try:
        out = await bounded.HINTS.run(job, budget=float(conf.value("GAMES_HINT_BUDGET")),
                                      threads=int(conf.value("GAMES_HINT_THREADS")))
    except ServiceError as exc:
        return _error(exc)
    except bounded.Busy:
        return JsonResponse({"error": {"code": "hints_busy", "message": _("Hints are busy: try again in a moment.")}},
                            status=503, headers={"Retry-After": "1"})
    except bounded.OverBudget:
        return JsonResponse({"error": {"code": "hint_timeout",
                                       "message": _("The hint took too long and was given up: try again.")}}, status=503)
    return JsonResponse(out)


async def game_hint_json(request, game_id):
    """``GET /games/<id>/hint.json``: the best plays or cube action for the player to act."""
    if request.method not in ("GET", "HEAD"):
        return JsonResponse({"error": {"code": "method_not_allowed", "message": "GET only."}}, status=405)
    return await _aid(request, game_id, lambda player: aids.hint_job(game_id=game_id, player=player))


async def game_tutor_json(request, game_id):
    """``POST /games/<id>/tutor.json`` ``{"moves": [...]}`` or ``{"action": "double"|...}``:
    how much the play or cube action would give up, before it is sent."""
    if request.method != "POST":
        return JsonResponse({"error": {"code": "method_not_allowed", "message": "POST only."}}, status=405)
    try:
        body = parse(request.body or b"{}", max_bytes=8192)
    except BadInput as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=400)
    return await _aid(request, game_id, lambda player: aids.tutor_job(game_id=game_id, player=player, body=body))

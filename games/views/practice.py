"""Practice pages (thin: ``games.selectors.practice`` reads, ``games.services.practice``
writes): ``/practice/`` starts a session and lists the past ones, ``/practice/<id>/`` is
the exercise view, ``POST /practice/<id>/answer/`` answers one exercise."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import ServiceError
from games.jsonsafe import BadInput, parse
from games.models import PracticeSession
from games.selectors import practice as reads
from games.selectors.players import player_of
from games.services import practice as service


def _index(request, player, error=None, status=200):
    return render(request, "practice.html", {"sizes": service.SIZES, "size": service.DEFAULT_SIZE,
                                             "history": reads.practice_history(player) if player else [],
                                             "error": error}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def practice_index(request):
    """``GET``: start form and history; ``POST`` (``size``): start a session."""
    player = player_of(request.user)
    if request.method == "GET":
        return _index(request, player)
    try:
        session = service.practice_start(player=player, size=request.POST.get("size", service.DEFAULT_SIZE))
    except ServiceError as exc:
        return _index(request, player, error=exc.as_dict(), status=exc.status)
    return redirect("practice_session", session_id=session.pk)


def _own_session(request, session_id) -> PracticeSession:
    player = player_of(request.user)
    session = PracticeSession.objects.filter(pk=session_id).first()
    if session is None or player is None or session.player_id != player.pk:
        raise Http404("No such practice session.")
    return session


@login_required
def practice_session(request, session_id):
    """The exercise view: the page reads the session's JSON from the page itself."""
    session = _own_session(request, session_id)
    return render(request, "practice_session.html", {"session": session, "data": reads.session_json(session)})


@login_required
def practice_session_json(request, session_id):
    try:
        session = _own_session(request, session_id)
    except Http404:
        return JsonResponse({"error": {"code": "session_not_found", "message": "There is no such practice session of yours."}},
                            status=404)
    return JsonResponse(reads.session_json(session))


@require_POST
def practice_answer(request, session_id):
    """``{"exercise": id, "choice": key}`` -> the answered exercise and the session's score."""
    try:
        body = parse(request.body or b"{}", max_bytes=4096)
    except BadInput as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"error": {"code": "bad_request", "message": "Send a JSON object."}}, status=400)
    try:
        service.practice_answer(player=player_of(request.user), session_id=session_id,
                                exercise_id=body.get("exercise"), choice=body.get("choice"))
    except ServiceError as exc:
        return JsonResponse({"error": exc.as_dict()}, status=exc.status)
    session = PracticeSession.objects.get(pk=session_id)
    data = reads.session_json(session)
    exercise = next(ex for ex in data["exercises"] if ex["id"] == int(body["exercise"]))
    return JsonResponse({"exercise": exercise, "session": {k: v for k, v in data.items() if k != "exercises"}})

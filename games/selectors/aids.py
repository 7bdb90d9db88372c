"""Hints and the tutor in a game in progress, for unrated play only (``docs/ANALYSIS.md``).

A match allows the aids when it was created unrated with ``aids`` on
(:func:`games.services.matches.match_create` refuses aids in a rated match,
``aids_in_rated``). :func:`game_hint` and :func:`game_tutor` refuse in any other match
with ``aids_not_allowed`` (403), so no client can get a hint in rated play. Both answer
only the player who must act now.
"""

from __future__ import annotations

from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Player
from games.selectors.serializers import score_at_start
from django.utils.translation import gettext

__all__ = ["TUTOR_THRESHOLDS", "game_hint", "game_tutor", "hint_job", "tutor_job"]

#: The tutor warns about a play whose gnubg mark is at least this bad (the player's choice).
TUTOR_THRESHOLDS = ("doubtful", "bad", "very_bad")


def _load(game_id: int, player: Player | None):
    game = Game.objects.select_related("match").filter(pk=game_id).first()
    if game is None:
        raise NotFound("game_not_found", gettext("There is no such game."))
    match = game.match
    if match.rated or not match.aids:
        raise Forbidden("aids_not_allowed", gettext("Hints and the tutor are for unrated matches created with them on."))
    color = match.color_of(player) if player is not None else None
    if color is None:
        raise Forbidden("not_a_player", gettext("Only a player of this match may ask for a hint."))
    if game.status != Game.PLAYING:
        raise Conflict("game_over", gettext("The game is over."))
    state = game.game_state()
    if state.actor != color:
        raise Conflict("not_your_turn", gettext("A hint is for the player who must act now."))
    return game, state, {"match_length": match.length, "score": score_at_start(game, match)}


def _analysis_error(exc) -> Exception:
    status = Conflict if exc.code == "wrong_phase" else BadRequest
    return status(exc.code, exc.message)


def hint_job(*, game_id: int, player: Player | None):
    """Check the request (the database part) and return the hint's computation, a function of
    no arguments that touches no database: the web process runs it in its bounded pool of
    hint threads, within a time budget (``games.views.analysis``)."""
    from games.analysis import AnalysisError, hint  # noqa: PLC0415 - bgsage loads on first use

    _game, state, where = _load(game_id, player)

    def compute() -> dict:
        try:
            return hint(state, **where)
        except AnalysisError as exc:
            raise _analysis_error(exc) from None
    return compute


def game_hint(*, game_id: int, player: Player | None) -> dict:
    """The best plays (dice out), the right cube action before rolling, or take / pass."""
    return hint_job(game_id=game_id, player=player)()


def tutor_job(*, game_id: int, player: Player | None, body: dict):
    """Like :func:`hint_job`, for the tutor's check (:func:`game_tutor`)."""
    from games.analysis import AnalysisError, check_cube, check_play  # noqa: PLC0415

    if not isinstance(body, dict):
        raise BadRequest("bad_request", gettext("Send {\"moves\": [...]} or {\"action\": ...}."))
    threshold = body.get("threshold", "bad")
    if threshold not in TUTOR_THRESHOLDS:
        raise BadRequest("bad_threshold", gettext("The tutor's threshold is doubtful, bad or very_bad."))
    _game, state, where = _load(game_id, player)
    if "moves" in body:
        if not isinstance(body["moves"], list):
            raise BadRequest("bad_play", gettext("'moves' is a list of steps."))
    elif "action" not in body:
        raise BadRequest("bad_request", gettext("Send {\"moves\": [...]} or {\"action\": ...}."))

    def compute() -> dict:
        try:
            if "moves" in body:
                out = check_play(state, body["moves"], **where)
            else:
                out = check_cube(state, body["action"], **where)
        except AnalysisError as exc:
            raise _analysis_error(exc) from None
        mark = out.get("mark")
        out["threshold"] = threshold
        out["warn"] = mark is not None and TUTOR_THRESHOLDS.index(mark) >= TUTOR_THRESHOLDS.index(threshold)
        return out
    return compute


def game_tutor(*, game_id: int, player: Player | None, body: dict) -> dict:
    """The tutor's check of ``{"moves": [...]}`` (a checker play) or ``{"action": ...}``
    (double / roll / take / drop / beaver) before it is sent. Returns the analysis core's
    answer (``loss``, ``mark``, the better choice) plus ``warn`` for the ``threshold``
    (default ``"bad"``)."""
    return tutor_job(game_id=game_id, player=player, body=body)()

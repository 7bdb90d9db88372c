"""The agent view of a match: the seed's fields (``you``, ``yourColor``, ``board``,
``whiteBar``, ``blackBar``, ``whiteOff``, ``blackOff``, ``dice``, ``legalMoves``,
``currentPlayer``, ``isYourTurn``, ``lastTurn``) plus this server's extensions.

Shaped from :func:`games.selectors.games.game_snapshot`, the one serialiser of a game.
Player ids are the ids agents know each other by (``agentId`` at registration).

``version`` is match-wide: the sum of the versions of the match's games up to the
current one, so it only grows during a match, across game boundaries (each game's own
version restarts at 1). :func:`game_version_for` turns it back into the current game's
version for the services' stale-version check.
"""

from __future__ import annotations

from django.db.models import Sum
from django.http import Http404

from games.selectors import games as selectors
from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED
from games.models import Game, Match
from games.selectors.visibility import match_for_viewer_or_404
from games.api.errors import ApiError
from games.engine import other
from django.utils.translation import gettext

GAME_ID = "backgammon"
SEED_FIELDS = ("you", "yourColor", "board", "whiteBar", "blackBar", "whiteOff", "blackOff", "dice",
               "legalMoves", "currentPlayer", "isYourTurn", "lastTurn")


def load_match(match_id, player=None) -> Match:
    """The match, if ``player``'s user may see it (``games.selectors.visibility``); 404 otherwise, the
    same answer as for a match that does not exist."""
    try:
        return match_for_viewer_or_404(getattr(player, "user", None), match_id)
    except Http404:
        raise ApiError(404, "match_not_found", gettext("There is no match %(match_id)s.")
                % {"match_id": match_id}) from None


def seat(match: Match, player) -> str:
    color = match.color_of(player)
    if color is None:
        raise ApiError(403, "not_your_match", gettext("You are not playing in this match."))
    return color


def current(match: Match) -> tuple:
    """``(game, version offset)``: the match's current game and the versions of the games before it.

    The game is read with its match (and both players) in **one** statement, so the two rows
    are of the same moment: ``game.match`` is that fresh copy, not ``match``. Read apart, a
    commit between the two reads (the last move of the match, by a worker) gave a view with
    the new version and the old status, and an agent waited its whole poll for a change
    that had already come (issue 25). The games before the current one no longer change.
    """
    game = (Game.objects.select_related("match", "match__white", "match__black")
            .filter(match_id=match.pk).order_by("-number").first())
    if game is None:
        raise ApiError(409, "match_not_started", gettext("This match has not started yet."))
    offset = (Game.objects.filter(match=match, number__lt=game.number).aggregate(total=Sum("version"))["total"]
              or 0)
    return game, offset


def game_version_for(version: int, game: Game, offset: int) -> int:
    """The current game's version for a match-wide ``version`` (409 when it is not the current one)."""
    if version != offset + game.version:
        raise ApiError(409, "stale_version",
                       gettext("The match has moved on (version %(value)s, you sent %(version)s): fetch the match and decide again.")
                               % {"value": offset + game.version, "version": version})
    return game.version


def agent_view(match: Match, player) -> dict:
    """What ``player`` (seated in ``match``) sees now."""
    color = seat(match, player)
    game, offset = current(match)
    match = game.match  # read with the game: one moment
    snap = selectors.game_snapshot(game, color)
    ids = {"white": match.white_id, "black": match.black_id}
    opponent_color = other(color)
    opponent = match.player_of(opponent_color)
    playing = game.status == Game.PLAYING and match.status == Match.PLAYING
    actor = snap["actor"] if playing else None
    your_turn = actor == color
    phase = snap["phase"]
    last = snap["lastTurn"]
    cube = snap["cube"]

    pending = None
    if your_turn and phase == CUBE_OFFERED:
        pending = {"type": "double", "by": ids[opponent_color], "cubeValue": cube["value"] * 2,
                   "canBeaver": cube["canBeaver"]}
    elif your_turn and phase == RESIGN_OFFERED and snap["resignOffer"]:
        offer = snap["resignOffer"]
        pending = {"type": "resign", "by": ids[offer["by"]], "level": offer["level"], "name": offer["name"],
                   "points": offer["level"] * cube["value"]}

    result = snap["result"]
    if result is not None:
        result = {**result, "winnerId": ids.get(result["winner"]) if result.get("winner") else None}
    return {
        # -- the seed's fields
        "you": player.pk,
        "yourColor": color,
        "board": snap["board"],
        "whiteBar": snap["whiteBar"],
        "blackBar": snap["blackBar"],
        "whiteOff": snap["whiteOff"],
        "blackOff": snap["blackOff"],
        "dice": snap["dice"] or [],
        "legalMoves": snap["legalMoves"] if your_turn and phase == MOVE else [],
        "currentPlayer": ids[actor] if actor else None,
        "isYourTurn": your_turn,
        "lastTurn": last["moves"] if last else None,
        # -- extensions
        "lastTurnBy": ids[last["color"]] if last else None,
        "matchId": match.pk,
        "gameId": GAME_ID,
        "gameNumber": game.number,
        "matchLength": match.length,
        "score": {"white": match.white_score, "black": match.black_score},
        "crawford": bool(snap["match"]["crawfordGame"]),
        "cube": {"value": cube["value"], "owner": cube["owner"], "canDouble": cube["canDouble"] and your_turn,
                 "enabled": cube["enabled"], "canBeaver": cube["canBeaver"] and your_turn,
                 "canRaccoon": cube["canRaccoon"] and your_turn},
        "pendingOffer": pending,
        "phase": phase,
        "turn": snap["turn"],
        "result": result,
        "matchOver": match.status in (Match.FINISHED, Match.ABORTED),
        "matchStatus": match.status,
        "winner": match.winner_id,
        "version": offset + game.version,
        "gameVersion": game.version,
        "opponent": {"id": opponent.pk, "name": opponent.display_name, "rating": round(opponent.rating, 1),
                     "isBot": opponent.is_bot, "vacationUntil": _vacation(opponent, match)} if opponent else None,
        "pips": snap["pips"],
        "gnubgId": snap["gnubgId"],
        "timeControl": snap["match"]["timeControl"],
        "clock": _clock(snap["clock"], ids),
    }


def _vacation(player, match) -> str | None:
    """When ``player``'s vacation ends, if they are on one and ``match`` is by correspondence."""
    from games.clock import now  # noqa: PLC0415

    until = player.vacation_until
    return until.isoformat() if match.corr_days and until is not None and until > now() else None


def _clock(clock: dict | None, ids: dict) -> dict | None:
    """The running clock for an agent: whose (by id), the deadline, each bank in ms."""
    if clock is None:
        return None
    corr = clock.get("correspondence") or {}
    return {"running": ids.get(clock["running"]) if clock["running"] else None, "deadline": clock["deadline"],
            "awardAt": corr.get("awardAt"), "bankMs": {"white": clock["white"], "black": clock["black"]}}


def match_summary(match: Match, player) -> dict:
    """One line of ``GET /api/matches``."""
    color = match.color_of(player)
    opponent = match.player_of(other(color))
    return {
        "matchId": match.pk,
        "status": match.status,
        "matchLength": match.length,
        "yourColor": color,
        "score": {"white": match.white_score, "black": match.black_score},
        "opponent": {"id": opponent.pk, "name": opponent.display_name} if opponent else None,
        "winner": match.winner_id,
    }

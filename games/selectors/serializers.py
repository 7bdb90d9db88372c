"""The wire shapes of players, matches and games: the one serialiser of game state.

Pure functions of model instances already in hand (they never query, except the lazy
relations the caller did not join): the snapshot a viewer gets, the summary of the state
after an event, the legal plays of the side on roll. Speaks the absolute frame of
RULES.md. Below ``selectors``, ``events`` and ``services`` (all three use it).
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from games.engine import MOVE, GameState, plays_json
from games.engine.gnubgid import position_id, state_ids
from games.engine.scoring import RESIGN_LEVELS
from games.clock import clock_dict, is_correspondence

RESIGN_NAMES = RESIGN_LEVELS  # level -> name: 1 single, 2 gammon, 3 backgammon


def player_dict(player) -> dict | None:
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": player.display_name,
        "rating": round(player.rating, 1),
        "isBot": player.is_bot,
    }


def time_control(match) -> dict | None:
    """A match's time control as the lobby, the pages and the bot API show it (None: no clock)."""
    if is_correspondence(match):
        days, bank = match.corr_days, match.corr_bank_days
        label = ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}
        if bank:
            label = gettext("%(per_move)s + %(bank)s") % {
                "per_move": label, "bank": ngettext("%(days)s day bank", "%(days)s days bank", bank) % {"days": bank}}
        return {"kind": "correspondence", "daysPerMove": days, "bankDays": bank, "label": label}
    if match.clock_delay or match.clock_bank:
        return {"kind": "live", "delay": match.clock_delay, "bankPerPoint": match.clock_bank,
                "label": gettext("%(delay)s s delay + %(bank)s s bank per point") % {
                    "delay": match.clock_delay, "bank": match.clock_bank}}
    return None


def match_dict(match) -> dict:
    return {
        "id": match.pk,
        "status": match.status,
        "length": match.length,
        "white": player_dict(match.white),
        "black": player_dict(match.black),
        "score": [match.white_score, match.black_score],
        "crawfordGame": match.crawford_game,
        "postCrawford": match.crawford_done and not match.crawford_game,
        "rules": match.rules().to_dict(),
        "private": match.private,
        "spectatorsAllowed": match.spectators_allowed,
        "rated": match.rated,
        "aids": match.aids,
        "winner": match.color_of(match.winner_id) if match.winner_id else None,
        "endReason": match.end_reason,
        "timeControl": time_control(match),
    }


def legal_moves(state: GameState) -> tuple:
    """``(colour, plays as step lists)`` when the side on roll must play, else ``(None, None)``."""
    if state.phase != MOVE:
        return None, None
    return state.actor, [p.to_list() for p in state.legal_plays()]


def legal_json(state: GameState) -> tuple:
    """:func:`legal_moves` with the plays as JSON text, as an event's frame carries them."""
    if state.phase != MOVE:
        return None, None
    return state.actor, plays_json(state.legal_plays())


def state_summary(game, match, state: GameState) -> dict:
    """The state after an event, as sent with it: phase, who acts, the cube and what the
    actor may do with it, the Position ID and the clocks."""
    actor = state.actor
    return {
        "phase": state.phase,
        "actor": actor,
        "cube": {"value": state.cube_value, "owner": state.cube_owner, "enabled": state.rules.cube_in_play},
        "may": {
            "double": bool(actor) and state.can_double(actor),
            "beaver": bool(actor) and state.can_beaver(actor),
            "raccoon": bool(actor) and state.can_raccoon(actor),
        },
        "positionId": position_id(state.position),
        "clock": clock_dict(game, match),
    }


def position_ids(state, *, length: int = 0, score: tuple = (0, 0)) -> dict:
    """GNU Backgammon's Position ID, Match ID and ``posid:matchid`` of a state within
    its match (``length`` 0 for money, ``score`` as (white, black) at the game's start), as
    gnubg shows the same moment (``games.engine.gnubgid.state_ids``)."""
    return state_ids(state, match_length=length, score=tuple(score))


def score_at_start(game, match) -> tuple:
    """The match score when ``game`` started (its own points not yet added)."""
    if game.status != "finished" or not game.winner_color:
        return (match.white_score, match.black_score)
    white, black = match.white_score, match.black_score
    if game.winner_color == "white":
        white -= game.points
    else:
        black -= game.points
    return (white, black)


def game_snapshot(game, viewer_color: str | None = None) -> dict:
    """Everything a client needs to draw the game, for a player or a spectator.

    Legal plays are included for the side on roll (the client never computes
    rules). The dice seed appears only once the game is over.
    """
    state = game.game_state()
    match = game.match
    pos = state.position
    mover, plays = legal_moves(state)
    return {
        "game": game.pk,
        "match": match_dict(match),
        "number": game.number,
        "version": game.version,
        "status": game.status,
        "phase": state.phase,
        "turn": pos.turn,
        "actor": state.actor,
        "you": viewer_color,
        **pos.to_dict(),
        "pips": {"white": pos.pip_count("white"), "black": pos.pip_count("black")},
        "dice": list(state.dice) if state.dice else None,
        "cube": {
            "value": state.cube_value,
            "owner": state.cube_owner,
            "enabled": state.rules.cube_in_play,
            "canDouble": bool(viewer_color) and state.can_double(viewer_color),
            "canBeaver": bool(viewer_color) and state.can_beaver(viewer_color),
            "canRaccoon": bool(viewer_color) and state.can_raccoon(viewer_color),
        },
        "resignOffer": (
            {"by": state.resign_offer[0], "level": state.resign_offer[1],
             "name": RESIGN_NAMES[state.resign_offer[1]]}
            if state.resign_offer else None
        ),
        "legalMoves": plays or [],
        "lastTurn": (
            {"color": state.last_mover, "moves": [s.to_dict() for s in state.last_play]}
            if state.last_mover else None
        ),
        "result": state.result.to_dict() if state.result else None,
        "diceCommitment": game.dice_commitment,
        "diceSeed": game.dice_seed if game.status == "finished" else None,
        **position_ids(state, length=match.length, score=score_at_start(game, match)),
        "clock": clock_dict(game, match),
    }

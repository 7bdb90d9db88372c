"""Game actions: every player action takes one path, :func:`game_act`.

One transaction: lock the match (with the game and both players, in one query), check
the seat, the game, the version and the clock, run the action's engine call (from the one
table, ``games.engine.actions``), roll for the next side when it has no cube choice, and write
every event of the action in one insert (``lifecycle.Record``). A refused action raises a
typed error with a stable code and changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from games import clock
from games.engine.actions import UnknownAction, lookup
from games.errors import BadRequest, Conflict
from games.models import Game
from games.services.records import check_version
from games.services.lifecycle import (
    MatchRecord,
    abort_game,
    auto_advance,
    finish_game,
    lock_game,
    roll,
    seat_of,
    store_state,
    time_out,
)
from django.utils.translation import gettext

MAX_STEPS = 8  # a play has at most four steps; more is a malformed message


def _check_fields(name: str, fields: dict) -> None:
    """The shape of an action's fields, before the engine sees them."""
    if name == "move":
        moves = fields.get("moves")
        if not isinstance(moves, (list, tuple)):
            raise BadRequest("bad_play", gettext("'moves' must be a list of steps like {\"from\": 24, \"to\": 20}."))
        if len(moves) > MAX_STEPS or not all(isinstance(s, dict) and len(s) <= 2 for s in moves):
            raise BadRequest("bad_play", gettext("A play is at most four steps, each {\"from\": p, \"to\": p}."))


def game_act(*, game_id, player, action: str, expected_version: int | None = None, **fields) -> Game:
    """Play ``action`` (a name of ``games.engine.actions``) for ``player`` (a Player or an id) in
    game ``game_id``; ``fields`` are the action's own (``moves`` for a move, ``level`` for a
    resignation offer). A player whose clock has run out loses on time instead."""
    try:
        spec = lookup(action)
    except UnknownAction:
        raise BadRequest("unknown_action", gettext("Unknown action %(value)s.")
                % {"value": repr(str(action)[:30])}) from None
    if spec.rolls and fields:
        raise BadRequest("bad_message", gettext("A roll takes no fields."))
    _check_fields(spec.name, fields)
    timed_out = False
    with transaction.atomic():
        game, match = lock_game(game_id)
        color = seat_of(match, player)
        if game.status == Game.FINISHED:
            raise Conflict("game_over", gettext("This game is over."))
        check_version(game.version, expected_version)
        record = MatchRecord(match)
        at = clock.now()
        if game.clock_deadline is not None and at >= clock.expires_at(game, match):
            timed_out = game.clock_color == color
            time_out(record, game, match)
        else:
            state = game.game_state()
            if spec.rolls:
                if state.actor != color:
                    raise Conflict("not_your_turn", gettext("It is not your turn."))
                spec.run(state, color, {"dice": (1, 1)})  # the engine's refusal (wrong_phase) if it is no time to roll
                state = roll(record, game, state, auto=False, action=spec)
            else:
                after = spec.run(state, color, fields)
                record.add(game, spec.name, spec.event_payload(state, after, color, fields), state=after,
                           actor=match.player_of(color))
                state = after
            clock.charge(game, match, color, at)
            if not state.is_over:
                state = auto_advance(record, game, state, match)
            store_state(game, match, state)
            if state.is_over:
                finish_game(record, game, match, state)
            record.commit()
            return game
        record.commit()
    if timed_out:
        raise Conflict("time_out", gettext("Your time ran out: the match is lost on time."))
    raise Conflict("game_over", gettext("Your opponent's time ran out: the match is over."))


def _named(name: str):
    def act(*, game_id, player, expected_version=None, **fields):
        return game_act(game_id=game_id, player=player, action=name, expected_version=expected_version, **fields)

    act.__name__ = act.__qualname__ = f"game_{name}"
    act.__doc__ = f"``game_act`` with ``action={name!r}`` (named for callers and tests)."
    return act


# One per action of the table, all through game_act (for callers and tests that name the action).
game_roll = _named("roll")
game_move = _named("move")
game_double = _named("double")
game_take = _named("take")
game_drop = _named("drop")
game_beaver = _named("beaver")
game_raccoon = _named("raccoon")
game_resign_offer = _named("resign_offer")
game_resign_accept = _named("resign_accept")
game_resign_reject = _named("resign_reject")
game_resign = _named("resign")


def game_abort(*, game_id, reason: str = "aborted by an administrator") -> Game:
    """End a game with no result and abort its match (an administrator's action)."""
    with transaction.atomic():
        game, match = lock_game(game_id)
        if game.status == Game.FINISHED:
            raise Conflict("game_over", gettext("This game is over."))
        record = MatchRecord(match)
        abort_game(record, game, match, reason)
        record.commit()
        return game


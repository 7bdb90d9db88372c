"""Game actions: roll, move, cube, resignations, abort.

Every public function is one transaction: it locks the match row, then the
game row (always in that order), checks who may act and the expected version,
asks the engine, writes the new state and one numbered event per change, and
publishes the events after commit. A refused action raises a typed error and
changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ..dice import commitment, new_server_seed
from ..engine import MOVE, OPENING, TURN, GameState
from ..engine.gnubgid import position_id
from ..engine.notation import format_play
from ..errors import BadRequest, Conflict, Forbidden, NotFound
from ..events import publish_match_on_commit, publish_on_commit
from ..models import Game, GameEvent, Match, Player
from . import clock
from .dice import dice_for
from .players import require_active

MAX_OPENING_ROLLS = 100  # a tie re-rolls; 100 ties in a row means the dice source is broken


# -- locking and writing ------------------------------------------------------------


def lock_game(game_id) -> tuple:
    """Lock and return ``(game, match)``: the match row first, then the game row."""
    if type(game_id) is not int:
        try:
            game_id = int(game_id)
        except (TypeError, ValueError):
            raise NotFound("game_not_found", "No such game.") from None
    match_id = Game.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise NotFound("game_not_found", f"There is no game {game_id}.")
    match = Match.objects.select_for_update().get(pk=match_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    game.match = match
    return game, match


def append_event(game: Game, kind: str, payload: dict, actor: Player | None = None) -> GameEvent:
    """Write the game's next numbered event and publish it after commit."""
    game.version += 1
    event = GameEvent.objects.create(game=game, version=game.version, type=kind, actor=actor, payload=payload)
    game._last_published = publish_on_commit(event)
    return event


def _roll_for(game: Game, state: GameState, source, *, auto: bool) -> GameState:
    counter = source.counter
    dice = source.roll()
    game.dice_counter = source.counter
    color = state.position.turn
    state = state.roll(color, dice)
    append_event(game, "roll", {"color": color, "dice": list(dice), "counter": counter, "auto": auto})
    return state


def auto_advance(game: Game, state: GameState) -> GameState:
    """Roll for the side on roll when it has no cube decision to make (seed 000:
    "two dice are rolled automatically")."""
    if state.phase == TURN and not state.needs_decision():
        state = _roll_for(game, state, dice_for(game), auto=True)
    return state


def check_version(game: Game, expected_version) -> None:
    if expected_version is None:
        return
    if type(expected_version) is not int or expected_version < 0:
        raise BadRequest("bad_version", "The version must be a non-negative integer.")
    if expected_version != game.version:
        raise Conflict(
            "stale_version",
            f"The game has moved on (version {game.version}, you sent {expected_version}); "
            "refresh and try again.",
        )


def seat_of(match: Match, player: Player) -> str:
    require_active(player)
    color = match.color_of(player)
    if color is None:
        raise Forbidden("not_a_player", "You are not playing in this game.")
    return color


# -- starting and ending games ----------------------------------------------------------


def start_game(match: Match) -> Game:
    """Create the match's next game, publish the dice commitment and roll the opening.
    The caller holds the match lock."""
    state = GameState.new(match.match_state().game_rules())
    if match.length == 0 and clock.has_clock(match):  # a money session's bank is per game
        match.white_bank_ms = match.black_bank_ms = clock.initial_bank_ms(match)
        match.save(update_fields=["white_bank_ms", "black_bank_ms"])
    seed = new_server_seed()
    game = Game.objects.create(
        match=match,
        number=match.games.count() + 1,
        state=state.to_dict(),
        dice_seed=seed,
        dice_commitment=commitment(seed),
    )
    append_event(
        game,
        "game_start",
        {
            "number": game.number,
            "rules": state.rules.to_dict(),
            "position": state.position.to_dict(),
            "diceCommitment": game.dice_commitment,
            "matchLength": match.length,
            "score": [match.white_score, match.black_score],
            "crawfordGame": state.rules.crawford_game,
        },
    )
    source = dice_for(game)
    for _ in range(MAX_OPENING_ROLLS):
        counters = [source.counter]
        white = source.die()
        counters.append(source.counter)
        black = source.die()
        game.dice_counter = source.counter
        state = state.opening_roll(white, black)
        append_event(
            game,
            "opening_roll",
            {
                "white": white,
                "black": black,
                "counters": counters,
                "first": state.position.turn if state.phase != OPENING else None,
                "cubeValue": state.cube_value,
            },
        )
        if state.phase != OPENING:
            break
    else:  # pragma: no cover - needs a broken dice source
        raise RuntimeError("The opening roll tied 100 times: the dice source is broken.")
    save_state(game, state)
    return game


def save_state(game: Game, state: GameState) -> None:
    """Store the state (and start the clock of whoever must act next)."""
    game.state = state.to_dict()
    clock.start(game, game.match, state.actor if not state.is_over else None, clock.now())
    last = getattr(game, "_last_published", None)
    if last is not None:
        # Derived, not stored: what clients need after this event without asking for a
        # snapshot, and the legal plays for the side on roll.
        last["state"] = state_summary(game, state)
        if state.phase == MOVE:
            last["legalMoves"] = [p.to_list() for p in state.legal_plays()]
            last["legalFor"] = state.actor
    game.save(update_fields=["state", "version", "dice_counter", "status", "winner_color", "points",
                             "result_kind", "finished_at", "clock_color", "clock_started_at",
                             "clock_deadline"])


def state_summary(game: Game, state: GameState) -> dict:
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
        "clock": clock.clock_dict(game, game.match),
    }


def finish_game(game: Game, match: Match, state: GameState, *, end_match_as: tuple | None = None) -> None:
    """Record a finished game in its match, then start the next game or end the match.

    ``end_match_as`` = ``(winner colour or None, reason, status)`` ends the match
    whatever the score (a forfeit or an abort). The caller holds the match lock.
    """
    from .matches import end_match  # matches imports this module

    result = state.result
    game.status = Game.FINISHED
    game.winner_color = result.winner or ""
    game.points = result.points
    game.result_kind = result.kind
    game.finished_at = timezone.now()
    save_state(game, state)

    match_winner = None
    if result.reason != "aborted":
        match_state = match.match_state().record(result)
        match_winner = match_state.winner
        match.white_score, match.black_score = match_state.score
        match.games_played = match_state.games_played
        match.crawford_game = match_state.is_crawford_game
        match.crawford_done = match_state.crawford_done
        match.save(update_fields=["white_score", "black_score", "games_played", "crawford_game", "crawford_done"])
        publish_match_on_commit(match)
        for color, player in (("white", match.white), ("black", match.black)):
            Player.objects.filter(pk=player.pk).update(
                games_played=F("games_played") + 1,
                games_won=F("games_won") + (1 if result.winner == color else 0),
            )
    if end_match_as is not None:
        winner, reason, status = end_match_as
        end_match(match, winner_color=winner, reason=reason, status=status)
    elif match_winner is not None:
        end_match(match, winner_color=match_winner, reason="points")
    # game_end is published before the next game's events (listeners see them in order);
    # the next game's id is filled in before the commit.
    end = append_event(game, "game_end", _end_payload(game, match, result, None))
    game.save(update_fields=["version"])
    if match.status == Match.PLAYING:
        next_game = start_game(match)
        end.payload["nextGame"] = next_game.pk  # the same dict is the one published after commit
        end.save(update_fields=["payload"])


def _end_payload(game: Game, match: Match, result, next_game) -> dict:
    return {
        **result.to_dict(),
        "score": [match.white_score, match.black_score],
        "matchOver": match.status in (Match.FINISHED, Match.ABORTED),
        "matchWinner": match.color_of(match.winner_id) if match.winner_id else None,
        "nextGame": next_game.pk if next_game else None,
        "diceSeed": game.dice_seed,
    }


# -- the actions ----------------------------------------------------------------------------


def _act(game_id, player, expected_version, kind, apply, payload=None):
    """The shared path of every player action: ``apply(state, colour)`` is the engine call,
    ``payload(new_state, colour)`` the event's extra fields."""

    def step(game, state, color):
        state = apply(state, color)
        append_event(game, kind, {"color": color, **(payload(state, color) if payload else {})},
                     actor=game.match.player_of(color))
        return state

    return _run(game_id, player, expected_version, step)


def _run(game_id, player, expected_version, step):
    """Lock, check the seat, the game and the version, run ``step`` and store the result.
    A player whose clock has run out loses on time instead."""
    timed_out = False
    with transaction.atomic():
        game, match = lock_game(game_id)
        color = seat_of(match, player)
        if game.status == Game.FINISHED:
            raise Conflict("game_over", "This game is over.")
        check_version(game, expected_version)
        at = clock.now()
        if game.clock_deadline is not None and at >= game.clock_deadline:
            timed_out = game.clock_color == color
            time_out(game, match)
        else:
            state = step(game, game.game_state(), color)
            clock.charge(game, match, color, at)
            game._last_published["state"] = state_summary(game, state)  # the final event gets the final one
            if not state.is_over:
                state = auto_advance(game, state)
            save_state(game, state)
            if state.is_over:
                finish_game(game, match, state)
            return game
    if timed_out:
        raise Conflict("time_out", "Your time ran out: the match is lost on time.")
    raise Conflict("game_over", "Your opponent's time ran out: the match is over.")


def time_out(game: Game, match: Match) -> None:
    """The player whose clock ran out loses the match (the caller holds the locks)."""
    from .matches import forfeit_match

    forfeit_match(match, game.clock_color, "timeout", game=game)


def game_roll(*, game_id, player: Player, expected_version: int | None = None) -> Game:
    """Roll the dice (the turn's start, when a cube decision was possible)."""

    def step(game, state, color):
        if state.actor != color:
            raise Conflict("not_your_turn", "It is not your turn.")
        if state.phase != TURN:
            state.roll(color, (1, 1))  # raises the engine's wrong_phase error
        return _roll_for(game, state, dice_for(game), auto=False)

    return _run(game_id, player, expected_version, step)


def game_move(*, game_id, player: Player, moves, expected_version: int | None = None) -> Game:
    """Play the dice: ``moves`` is the whole play as steps (``{"from", "to"}`` dicts)."""
    if not isinstance(moves, (list, tuple)):
        raise BadRequest("bad_play", "'moves' must be a list of steps.")
    notation = {}

    def apply(state, color):
        after = state.move(color, moves)
        notation["text"] = format_play(state.position, after.last_play)
        notation["steps"] = [s.to_dict() for s in after.last_play]
        notation["dice"] = list(state.dice)
        return after

    return _act(
        game_id, player, expected_version, "move", apply,
        lambda s, c: {"moves": notation["steps"], "dice": notation["dice"], "notation": notation["text"]},
    )


def game_double(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "double", lambda s, c: s.double(c),
                lambda s, c: {"cubeValue": s.cube_value * 2})


def game_take(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "take", lambda s, c: s.take(c),
                lambda s, c: {"cubeValue": s.cube_value})


def game_drop(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "drop", lambda s, c: s.drop(c))


def game_beaver(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "beaver", lambda s, c: s.beaver(c),
                lambda s, c: {"cubeValue": s.cube_value})


def game_raccoon(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "raccoon", lambda s, c: s.raccoon(c),
                lambda s, c: {"cubeValue": s.cube_value})


def game_resign_offer(*, game_id, player, level, expected_version=None) -> Game:
    """Offer to resign at 1 (single), 2 (gammon) or 3 (backgammon)."""
    return _act(game_id, player, expected_version, "resign_offer",
                lambda s, c: s.offer_resignation(c, level), lambda s, c: {"level": level})


def game_resign_accept(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "resign_accept", lambda s, c: s.accept_resignation(c))


def game_resign_reject(*, game_id, player, expected_version=None) -> Game:
    return _act(game_id, player, expected_version, "resign_reject", lambda s, c: s.reject_resignation(c))


def game_resign(*, game_id, player, expected_version=None) -> Game:
    """Concede now at the most the position could lose (the bot API's plain resign)."""
    return _act(game_id, player, expected_version, "resign", lambda s, c: s.resign(c),
                lambda s, c: {"level": {"single": 1, "gammon": 2, "backgammon": 3,
                                        "double_backgammon": 4}[s.result.kind]})


def game_abort(*, game_id, reason: str = "aborted by an administrator") -> Game:
    """End a game with no result and abort its match (an administrator's action)."""
    with transaction.atomic():
        game, match = lock_game(game_id)
        if game.status == Game.FINISHED:
            raise Conflict("game_over", "This game is over.")
        state = game.game_state().abort()
        append_event(game, "abort", {"reason": reason})
        finish_game(game, match, state, end_match_as=(None, "aborted", Match.ABORTED))
        return game

"""A house bot's turn: read the game, decide within the time limit, play through the services.

Called by the workers' ``bot_turn`` task (``games.tasks``) with the version the turn was
scheduled for. The decision (``games.bots.decide``: plain dicts in, one action out) runs
within ``GAMES_BOT_TIME_LIMIT`` seconds (default 10); past that, or when the strategy
fails or answers something that does not fit the phase, the bot plays a fallback: the
first legal play, roll, take, accept. The action goes through ``services.game_act`` with
the version it decided on, so a turn that someone else moved past (a retry, a duplicate
task) is refused as stale and changes nothing.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.utils.module_loading import import_string

from games.engine.actions import UnknownAction, lookup
from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, GameState
from games.engine.errors import EngineError
from games import conf
from games.errors import ServiceError

logger = logging.getLogger(__name__)

_executor = None

# Refusals that mean the turn is no longer the bot's (the opponent resigned or a clock ran
# out while the bot thought): nothing to do, and nothing to retry.
MOVED_ON = frozenset({"stale_version", "game_over"})


def play_turn(game_id: int, version: int | None = None) -> str | None:
    """Play one action for the house bot that must act in ``game_id`` (at ``version``, when
    given). Returns the action played, or None when there was nothing to do."""
    from games import services
    from games.models import Game
    from games.selectors.players import bot_level

    game = (Game.objects.select_related("match", "match__white__housebot", "match__black__housebot")
            .filter(pk=game_id, status=Game.PLAYING).first())
    if game is None or (version is not None and game.version != version):
        return None
    state = game.game_state()
    color = state.actor
    player = game.match.player_of(color) if color else None
    level = bot_level(player)
    if level is None:
        return None
    decision = decide_in_time(level, state.to_dict(), game.match.match_state().to_dict())
    if not fits(decision, state):
        logger.warning("house bot %s answered %r in phase %s: playing the fallback", level, decision, state.phase)
        decision = fallback(state)
    try:
        _apply(services, decision, game_id=game.pk, player=player, version=game.version)
    except ServiceError as exc:
        if exc.code in MOVED_ON:
            return None  # someone else acted meanwhile: the new state brings a new turn if needed
        raise
    except EngineError as exc:
        logger.warning("house bot %s: %s refused (%s); playing the fallback", level, decision.get("action"), exc.code)
        decision = fallback(state)
        _apply(services, decision, game_id=game.pk, player=player, version=game.version)
    return decision["action"]


def _apply(services, decision: dict, *, game_id, player, version) -> None:
    fields = {"moves": decision["moves"]} if decision["action"] == "move" else {}
    services.game_act(game_id=game_id, player=player, action=lookup(decision["action"]).name,
                      expected_version=version, **fields)


def fits(decision, state: GameState) -> bool:
    """Whether ``decision`` is an action of the state's phase (by the one table of actions)."""
    if not isinstance(decision, dict):
        return False
    try:
        spec = lookup(decision.get("action"))
    except UnknownAction:
        return False
    return state.phase in spec.phases and (spec.name != "move" or isinstance(decision.get("moves"), list))


def fallback(state: GameState) -> dict:
    """The safe action when the strategy fails or runs out of time."""
    if state.phase == MOVE:
        plays = state.legal_plays()
        return {"action": "move", "moves": plays[0].to_list() if plays else []}
    if state.phase == CUBE_OFFERED:
        return {"action": "take"}
    if state.phase == RESIGN_OFFERED:
        return {"action": "accept"}
    return {"action": "roll"}


def strategy():
    """The decision function: ``games.bots.decide``, or ``GAMES_BOT_STRATEGY`` (a dotted path;
    tests of real workers use it to make a turn slow enough to kill a worker in the middle)."""
    from games import bots

    path = conf.value("GAMES_BOT_STRATEGY")
    return import_string(path) if path else bots.decide


def decide_in_time(level: str, game_state: dict, match_state: dict) -> dict:
    """The strategy's decision within ``GAMES_BOT_TIME_LIMIT`` seconds (the fallback after that)."""
    global _executor
    limit = conf.value("GAMES_BOT_TIME_LIMIT")
    try:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot-decide")
        return _executor.submit(strategy(), level, game_state, match_state).result(timeout=limit)
    except FutureTimeout:
        logger.warning("house bot %s took more than %s s: playing the fallback", level, limit)
    except Exception:
        logger.exception("house bot %s failed to decide: playing the fallback", level)
    return fallback(GameState.from_dict(game_state))

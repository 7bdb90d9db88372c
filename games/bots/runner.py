"""The house bots' runner: plays a house bot's turn whenever a committed event leaves
it to act.

Registered as an events listener (``GamesConfig.ready``). For every committed game
event the listener does one small query (does this game seat a house bot, and is it
that bot's colour to act?) and, if so, hands the game to a background thread, so the
service call that triggered it returns at once. The thread ships the decision
(``games.bots.decide``, plain dicts in, plain dict out) to a process pool, so the
thinking runs outside the server's event loop and threads, waits at most
``GAMES_BOT_TIME_LIMIT`` seconds (default 10; on time-out it plays a fallback: the
first legal play, roll, take, accept), then applies the action through the services
with the version it decided on: a ``stale_version`` refusal means someone else acted
meanwhile and is ignored.

Settings: ``GAMES_BOT_WORKERS`` (processes, default 1), ``GAMES_BOT_TIME_LIMIT``,
``GAMES_BOT_SYNC`` (tests: decide inline, in the caller's thread, right after commit),
``GAMES_BOT_ENABLED`` (default True).

A game is handled by one thread at a time: events arriving while it is being handled
only mark it for another look when the current step ends (so a burst of events costs
one decision, and the bot never acts twice on one version).
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q

from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN, GameState
from games.engine.errors import EngineError
from games.errors import ServiceError

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_running: set = set()  # game ids being handled
_again: set = set()  # game ids to look at again when their current step ends
_threads: ThreadPoolExecutor | None = None
_pool: ProcessPoolExecutor | None = None


def _setting(name, default):
    return getattr(settings, name, default)


# -- the listener ------------------------------------------------------------------------------


def on_event(data: dict) -> None:
    """Events listener: a committed game event; schedule the game if a house bot must act."""
    if "v" not in data or "game" not in data or data.get("lobby") or not _setting("GAMES_BOT_ENABLED", True):
        return
    game_id = data["game"]
    if not _has_house_bot(game_id):
        return  # most games: no query after the first event
    # Only the last event of a commit (its version is the game's): by then the earlier
    # ones have gone out, so the bot's reply never overtakes them on the wire.
    if _bot_to_act(game_id, version=data["v"]) is None:
        return
    schedule(game_id)


# game id -> whether a house bot sits in its match (a game's players never change, and
# database ids are not reused; tests, whose databases are emptied, clear it between tests)
_bot_games: dict = {}


def _has_house_bot(game_id: int) -> bool:
    known = _bot_games.get(game_id)
    if known is None:
        from games.models import Game

        known = Game.objects.filter(pk=game_id).filter(
            Q(match__white__housebot__isnull=False) | Q(match__black__housebot__isnull=False)).exists()
        if len(_bot_games) > 50_000:
            _bot_games.clear()
        _bot_games[game_id] = known
    return known


def resume_waiting() -> int:
    """Schedule every game where a house bot must act (after a restart nothing else would
    wake it). Safe to call often: a game already being played is not scheduled twice."""
    from games.models import Game

    ids = Game.objects.filter(status=Game.PLAYING).filter(
        Q(match__white__housebot__isnull=False) | Q(match__black__housebot__isnull=False)
    ).values_list("pk", flat=True)
    count = 0
    for game_id in ids:
        with _lock:
            busy = game_id in _running
        if not busy and _bot_to_act(game_id) is not None:
            schedule(game_id)
            count += 1
    return count


def _bot_to_act(game_id, version=None):
    """``(level, player id, colour)`` when a house bot must act in this game now (and, given
    ``version``, the game is at that version), else None."""
    from games.models import Game

    row = (Game.objects.filter(pk=game_id, status=Game.PLAYING)
           .values_list("state", "version", "match__white_id", "match__black_id",
                        "match__white__housebot__level", "match__black__housebot__level").first())
    if row is None:
        return None
    state, current, white_id, black_id, white_level, black_level = row
    if (white_level is None and black_level is None) or (version is not None and version != current):
        return None
    actor = GameState.from_dict(state).actor
    if actor == "white" and white_level:
        return white_level, white_id, "white"
    if actor == "black" and black_level:
        return black_level, black_id, "black"
    return None


def schedule(game_id: int) -> None:
    """Look at ``game_id`` soon (inline with ``GAMES_BOT_SYNC``, else on a background thread)."""
    with _lock:
        if game_id in _running:
            _again.add(game_id)
            return
        _running.add(game_id)
    if _setting("GAMES_BOT_SYNC", False):
        _drain(game_id, inline=True)
    else:
        _thread_pool().submit(_drain, game_id, inline=False)


def _drain(game_id: int, *, inline: bool) -> None:
    try:
        while True:
            try:
                step(game_id)
            except Exception:  # a broken step must not kill the thread; the next event retries
                logger.exception("house bot failed in game %s", game_id)
            with _lock:
                if game_id in _again:
                    _again.discard(game_id)
                    continue
                _running.discard(game_id)
                return
    finally:
        if not inline:
            close_old_connections()


# -- one step: read, decide, apply ----------------------------------------------------------------


def step(game_id: int) -> str | None:
    """Play one action for the house bot to act in ``game_id`` (if any). Returns the action."""
    from games.models import Game, Player

    todo = _bot_to_act(game_id)
    if todo is None:
        return None
    level, player_id, color = todo
    game = Game.objects.select_related("match").get(pk=game_id)
    state = game.game_state()
    if state.actor != color:
        return None
    decision = decide_in_time(level, state.to_dict(), game.match.match_state().to_dict())
    if not _fits(decision, state):
        logger.warning("house bot %s answered %r in phase %s: playing the fallback", level, decision, state.phase)
        decision = fallback(state)
    player = Player.objects.get(pk=player_id)
    try:
        apply(decision, game_id=game.pk, player=player, version=game.version)
    except ServiceError as exc:
        if exc.code == "stale_version":
            return None  # someone else acted meanwhile: the new event brings us back if needed
        raise
    except EngineError as exc:
        logger.warning("house bot %s: %s refused (%s); playing the fallback", level, decision.get("action"),
                       exc.code)
        decision = fallback(state)
        apply(decision, game_id=game.pk, player=player, version=game.version)
    return decision["action"]


def _fits(decision, state: GameState) -> bool:
    if not isinstance(decision, dict):
        return False
    allowed = {
        MOVE: {"move"},
        TURN: {"roll", "double", "raccoon"},
        CUBE_OFFERED: {"take", "drop", "beaver"},
        RESIGN_OFFERED: {"accept", "reject"},
    }.get(state.phase, set())
    return decision.get("action") in allowed and (decision["action"] != "move"
                                                  or isinstance(decision.get("moves"), list))


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


def apply(decision: dict, *, game_id, player, version) -> None:
    """Submit ``decision`` through the services as ``player`` with the expected version."""
    from games import services

    action = decision["action"]
    fn = {
        "move": services.game_move, "roll": services.game_roll, "double": services.game_double,
        "take": services.game_take, "drop": services.game_drop, "beaver": services.game_beaver,
        "raccoon": services.game_raccoon, "accept": services.game_resign_accept,
        "reject": services.game_resign_reject,
    }[action]
    kwargs = {"moves": decision["moves"]} if action == "move" else {}
    fn(game_id=game_id, player=player, expected_version=version, **kwargs)


def decide_in_time(level: str, game_state: dict, match_state: dict) -> dict:
    """The strategy's decision: inline with ``GAMES_BOT_SYNC``, else in the process pool
    within ``GAMES_BOT_TIME_LIMIT`` seconds (the fallback after that)."""
    from games import bots

    limit = float(_setting("GAMES_BOT_TIME_LIMIT", 10))
    try:
        if _setting("GAMES_BOT_SYNC", False):
            return bots.decide(level, game_state, match_state)
        future = _process_pool().submit(bots.decide, level, game_state, match_state)
        return future.result(timeout=limit)
    except FutureTimeout:
        logger.warning("house bot %s took more than %s s: playing the fallback", level, limit)
    except Exception:
        logger.exception("house bot %s failed to decide: playing the fallback", level)
        _reset_process_pool()
    return fallback(GameState.from_dict(game_state))


# -- pools -----------------------------------------------------------------------------------------


def _thread_pool() -> ThreadPoolExecutor:
    global _threads
    with _lock:
        if _threads is None:
            _threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="house-bot")
        return _threads


def _process_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # spawn: never fork a process that runs threads (the server's, the thread pool's).
            _pool = ProcessPoolExecutor(max_workers=int(_setting("GAMES_BOT_WORKERS", 1)),
                                        mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _reset_process_pool() -> None:
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


@atexit.register
def shutdown() -> None:
    """Stop the pools (at exit; tests may call it)."""
    global _threads
    _reset_process_pool()
    with _lock:
        threads, _threads = _threads, None
    if threads is not None:
        threads.shutdown(wait=False, cancel_futures=True)

"""The bgsage neural-network engine (MPL-2.0, weights ship inside its wheel).

Everything bgsage-specific lives here: import (with a pubeval fallback when the
package or its AVX2 extension cannot load), board conversion, cached analyzers.

Ply numbering: this module counts plies like GNU Backgammon (0-ply = the raw
network). bgsage follows eXtreme Gammon's convention, where the raw network is
"1ply": our ``ply`` maps to bgsage's ``eval_level=f"{ply + 1}ply"``.

bgsage boards are 26 integers seen by one side (the "player"): index 1..24 the
player's points (player moves 24 -> 1, own checkers > 0, opponent < 0),
index 25 the player's bar, index 0 the opponent's bar (both >= 0).
"""

from __future__ import annotations

import logging
import os
import threading
from functools import lru_cache

from games.engine.position import WHITE

log = logging.getLogger("games.analysis.sage")

_state = {"checked": False, "module": None}
_analyzers: dict = {}


_import_lock = threading.Lock()


def sage_module():
    """The ``bgsage`` module, or None when it cannot be imported (logged once). Thread-safe: a
    worker's second thread waits for the first one's import instead of finding "checked" with
    no module yet (which failed an analysis with ``engine_unavailable``)."""
    if not _state["checked"]:
        with _import_lock:
            if not _state["checked"]:
                try:
                    import bgsage  # noqa: PLC0415 - optional, heavy, CPU-dependent

                    _state["module"] = bgsage
                except Exception as exc:  # ImportError, or an illegal-instruction style load failure
                    _state["module"] = None
                    log.warning("bgsage unavailable (%s: %s); bots fall back to pubeval", type(exc).__name__, exc)
                _state["checked"] = True
    return _state["module"]


def available() -> bool:
    return sage_module() is not None


def reset() -> None:
    """Forget the import result and analyzers (tests simulate a missing bgsage)."""
    _state["checked"] = False
    _state["module"] = None
    _analyzers.clear()
    _equity_table.cache_clear()


def threads() -> int:
    """Threads per analyzer: ``BOTS_SAGE_THREADS`` (0 = bgsage's default, all cores)."""
    try:
        return int(os.environ.get("BOTS_SAGE_THREADS", "0"))
    except ValueError:
        return 0


def analyzer(ply: int, cubeful: bool = True):
    """A cached ``BgBotAnalyzer`` at GNU-Backgammon ``ply`` (0, 1 or 2)."""
    key = (ply, cubeful, threads())
    found = _analyzers.get(key)
    if found is None:
        bgsage = sage_module()
        if bgsage is None:
            raise RuntimeError("bgsage is not available")
        kwargs = {"eval_level": f"{ply + 1}ply", "cubeful": cubeful}
        if ply >= 1:
            kwargs["parallel_threads"] = threads()
        found = _analyzers[key] = bgsage.BgBotAnalyzer(**kwargs)
    return found


def board_for(position, color: str) -> tuple:
    """``position`` as a bgsage board seen by ``color``."""
    board = position.board
    if color == WHITE:
        out = [position.black_bar] + list(board[1:25]) + [position.white_bar]
    else:
        out = [position.white_bar] + [-board[25 - p] for p in range(1, 25)] + [position.black_bar]
    return tuple(out)


def match_args(game_state, match_state, color: str) -> dict:
    """bgsage's cube/match keywords for ``color`` (the player of the board)."""
    from games.engine.position import other

    rules = game_state.rules
    owner = game_state.cube_owner
    cube_owner = "centered" if owner is None else ("player" if owner == color else "opponent")
    args = {
        "cube_value": game_state.cube_value,
        "cube_owner": cube_owner,
        "jacoby": bool(rules.jacoby),
        "beaver": bool(rules.beaver),
    }
    if match_state is not None and not match_state.rules.is_money:
        args["away1"] = match_state.away(color)
        args["away2"] = match_state.away(other(color))
        args["is_crawford"] = bool(rules.crawford_game or match_state.is_crawford_game)
    return args


def play_equities(position, dice, plays, ply: int, cube: dict | None = None, cubeful: bool = True) -> list:
    """Equity of each play for the side on roll (aligned with ``plays``; None where
    bgsage did not score a play). ``cube``: keywords from :func:`match_args`."""
    color = position.turn
    table = _equity_table(board_for(position, color), tuple(dice), ply, tuple(sorted((cube or {}).items())), cubeful)
    return [table.get(board_for(play.result, color)) for play in plays]


@lru_cache(maxsize=4096)
def _equity_table(board: tuple, dice: tuple, ply: int, cube_items: tuple, cubeful: bool) -> dict:
    """{post-move board: equity} for one decision (cached: noisy levels share it)."""
    result = analyzer(ply, cubeful).checker_play(list(board), dice[0], dice[1], **dict(cube_items))
    return {tuple(m.board): (m.equity if cubeful else m.cubeless_equity) for m in result.moves}


#: The shallowest cube search (as in the analysis): bgsage's 0-ply cube action is
#: Janowski's formula on the raw network, blind to a dead cube and to the taker's recube
#: at the match score; from 1-ply on it is bgsage's recursive cubeful search.
CUBE_MIN_PLY = 1


def cube_action(position, color: str, cube: dict, ply: int):
    """bgsage's cube analysis of ``position`` pre-roll, ``color`` (the doubler) on roll,
    cubeful at the match score (at least :data:`CUBE_MIN_PLY` deep)."""
    return analyzer(max(ply, CUBE_MIN_PLY), True).cube_action(list(board_for(position, color)), **cube)

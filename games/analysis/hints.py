"""Hints and the tutor's check, for a game in progress.

* :func:`hint` answers for whoever must act now: the best plays (dice out), the right
  cube action before rolling (when the player may double), or take / pass when doubled.
* :func:`check_play` and :func:`check_cube` are the tutor's check: how much equity a
  given play or cube action gives up, its gnubg mark, and the better choice, so a client
  can stop a blunder before it is sent (``mark`` is ``"bad"`` or ``"very_bad"``).

All take the engine's :class:`~games.engine.GameState` plus the match length and the
score at the start of the game, like the analysis. The default depth,
:data:`HINT_PLY` (GNU Backgammon 1-ply), answers within the 300 ms p95 budget
(``bench/analysis_bench.py`` measures it).
"""

from __future__ import annotations

from games.engine import CUBE_OFFERED, MOVE, TURN, GameState
from games.engine.errors import EngineError
from games.engine.moves import check_play as engine_check_play
from games.engine.notation import format_play
from games.engine.position import other

from .context import cube_available, cube_context
from .errors import AnalysisError, gettext_noop
from .marks import skill_mark

__all__ = ["HINT_PLY", "hint", "check_play", "check_cube"]

HINT_PLY = 1


def _evaluator(ply, evaluator):
    if evaluator is not None:
        return evaluator
    from .sage_eval import evaluator as sage_evaluator  # noqa: PLC0415

    return sage_evaluator(ply)


def _r(x) -> float:
    return round(float(x), 5)


def _plays(state: GameState, ev, ctx, ply, keep=()):
    color = state.actor
    board = ev.board(state.position, color)
    cands = ev.checker(board, tuple(state.dice), ctx, keep=keep, ply=ply)
    by_board = {tuple(ev.board(p.result, color)): p for p in state.legal_plays()}
    best = cands[0].equity
    out = []
    for cand in cands:
        p = by_board.get(cand.board)
        if p is None:  # pragma: no cover - bgsage and the engine agree on legal plays
            continue
        out.append({"moves": p.to_list(), "notation": format_play(state.position, p), "equity": _r(cand.equity),
                    "loss": _r(best - cand.equity), "ply": cand.ply, "_board": cand.board})
    return out


def _cube(state: GameState, ev, ply, color, *, match_length, score):
    ctx = cube_context(state, color, match_length=match_length, score=score)
    cube = ev.cube(ev.board(state.position, color), ctx, ply=ply)
    optimal = max(cube.nd, min(cube.dt, cube.dp))
    return cube, optimal, ctx


def hint(state: GameState, *, match_length: int = 0, score: tuple = (0, 0), ply: int = HINT_PLY,
         count: int = 5, evaluator=None) -> dict:
    """What the player to act should do.

    Returns ``{"kind": "play", "player", "plays": [{"moves", "notation", "equity",
    "loss", "ply"}, ...]}`` (best first, at most ``count``) in the move phase;
    ``{"kind": "cube", "player", "action": "double"|"roll", "nd", "dt", "dp"}`` before
    rolling when the player may double; ``{"kind": "answer", "player", "action":
    "take"|"drop", "nd", "dt", "dp"}`` when doubled (the doubler's equities). Raises
    :class:`AnalysisError` (``wrong_phase``) when there is no such decision.
    """
    ev = _evaluator(ply, evaluator)
    color = state.actor
    if state.phase == MOVE:
        ctx = cube_context(state, color, match_length=match_length, score=score)
        plays = _plays(state, ev, ctx, ply)[:count]
        for p in plays:
            p.pop("_board")
        return {"kind": "play", "player": color, "dice": list(state.dice), "plays": plays}
    if state.phase == TURN and color is not None:
        ctx = cube_context(state, color, match_length=match_length, score=score)
        if not cube_available(state, color, ctx):
            raise AnalysisError("wrong_phase", gettext_noop("There is no cube decision now: roll the dice."))
        cube, optimal, _ = _cube(state, ev, ply, color, match_length=match_length, score=score)
        action = "roll" if cube.nd >= min(cube.dt, cube.dp) else "double"
        return {"kind": "cube", "player": color, "action": action, "nd": _r(cube.nd), "dt": _r(cube.dt),
                "dp": _r(cube.dp), "tooGood": cube.nd > cube.dp, "ply": cube.ply}
    if state.phase == CUBE_OFFERED:
        doubler = state.position.turn
        cube, _optimal, _ = _cube(state, ev, ply, doubler, match_length=match_length, score=score)
        return {"kind": "answer", "player": color, "action": "take" if cube.dt <= cube.dp else "drop",
                "nd": _r(cube.nd), "dt": _r(cube.dt), "dp": _r(cube.dp), "ply": cube.ply}
    raise AnalysisError("wrong_phase", gettext_noop("Nobody has a play or a cube decision to make now."))


def check_play(state: GameState, moves, *, match_length: int = 0, score: tuple = (0, 0), ply: int = HINT_PLY,
               evaluator=None) -> dict:
    """The tutor's check of a checker play (``moves``: the steps, as sent to ``game_move``).

    Returns ``{"loss", "mark", "forced", "played": {...}, "best": {...}}`` with equities
    normalised as in the analysis. Raises :class:`AnalysisError` (``wrong_phase``,
    ``bad_play``).
    """
    if state.phase != MOVE:
        raise AnalysisError("wrong_phase", gettext_noop("There is no checker play to make now."))
    try:
        play = engine_check_play(state.position, state.dice, moves)
    except EngineError as exc:
        raise AnalysisError.from_engine("bad_play", exc) from None
    legal = state.legal_plays()
    played = {"moves": play.to_list(), "notation": format_play(state.position, play)}
    if len(legal) <= 1:
        return {"loss": 0.0, "mark": None, "forced": True, "played": played, "best": played}
    ev = _evaluator(ply, evaluator)
    color = state.actor
    ctx = cube_context(state, color, match_length=match_length, score=score)
    board = tuple(ev.board(play.result, color))
    plays = _plays(state, ev, ctx, ply, keep=[board])
    mine = next(p for p in plays if p["_board"] == board)
    best = plays[0]
    loss = max(0.0, best["equity"] - mine["equity"])
    for p in (mine, best):
        p.pop("_board", None)
    return {"loss": _r(loss), "mark": skill_mark(loss), "forced": False, "played": mine, "best": best}


def check_cube(state: GameState, action: str, *, match_length: int = 0, score: tuple = (0, 0),
               ply: int = HINT_PLY, evaluator=None) -> dict:
    """The tutor's check of a cube action: ``"double"`` or ``"roll"`` before rolling,
    ``"take"``, ``"drop"`` or ``"beaver"`` when doubled (a beaver is judged as a take).

    Returns ``{"loss", "mark", "best", "nd", "dt", "dp"}``. Raises :class:`AnalysisError`
    (``bad_action``, ``wrong_phase``).
    """
    if action not in ("double", "roll", "take", "drop", "beaver"):
        raise AnalysisError("bad_action", gettext_noop("The cube action must be double, roll, take, drop or beaver."))
    ev = _evaluator(ply, evaluator)
    if action in ("double", "roll"):
        color = state.actor
        if state.phase != TURN or color is None:
            raise AnalysisError("wrong_phase", gettext_noop("Doubling or rolling is decided before the roll."))
        ctx = cube_context(state, color, match_length=match_length, score=score)
        if not cube_available(state, color, ctx):
            return {"loss": 0.0, "mark": None, "best": "roll", "nd": None, "dt": None, "dp": None}
        cube, optimal, _ = _cube(state, ev, ply, color, match_length=match_length, score=score)
        mine = cube.nd if action == "roll" else min(cube.dt, cube.dp)
        best = "roll" if cube.nd >= min(cube.dt, cube.dp) else "double"
    else:
        if state.phase != CUBE_OFFERED:
            raise AnalysisError("wrong_phase", gettext_noop("There is no double to answer."))
        doubler = other(state.actor)
        cube, _optimal, _ = _cube(state, ev, ply, doubler, match_length=match_length, score=score)
        # the taker's view: equities are the doubler's, so lower is better
        optimal, mine = -min(cube.dt, cube.dp), -(cube.dp if action == "drop" else cube.dt)
        best = "take" if cube.dt <= cube.dp else "drop"
    loss = max(0.0, optimal - mine)
    return {"loss": _r(loss), "mark": skill_mark(loss), "best": best,
            "nd": _r(cube.nd), "dt": _r(cube.dt), "dp": _r(cube.dp)}

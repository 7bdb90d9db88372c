"""Everything bgsage-specific in the analysis: one evaluator over bgsage's C++ engine.

Plies are counted like GNU Backgammon (0-ply = the raw network, 1-ply = one roll of
look-ahead...); bgsage names the same depths ``"1ply"``, ``"2ply"``... (see
``games.analysis.sage``, whose board conversion this module reuses).

All equities are **cubeful**, seen by the player on roll, **normalised to a 1-cube**:
money equity per unit of the cube in a money session, and in match play the
equity-in-money-game-units of the match-winning chances at the score (EMG, through
bgsage's match equity table): +1 means winning the current cube value, -1 losing it,
so a double/pass is always +1.000, as in gnubg.

How each number is computed (bgsage primitives, all with its bear-off database):

* **Checker play** at ply ``p``: every legal play scored at 0-ply (the network's
  probabilities turned cubeful by Janowski's formula), then the best ``FILTERS[p]``
  candidates (and always the play that was made) re-scored deeper with bgsage's
  cube-aware N-ply post-move evaluation, with gnubg's analysis move filters.
* **Cube decision** at ply ``p``: bgsage's own cube analysis at the match score
  (``cube_decision_nply_unified``, what ``BgBotAnalyzer.cube_action`` runs): a recursive
  cubeful search ``p`` plies deep in which both sides make their cube decisions at every
  node, Janowski's formula only at the leaves, so the taker's recube with the doubler's
  cube dead at the score is valued (gnubg's method). At 0-ply it searches 1 ply
  (``CUBE_MIN_PLY``): the raw network's Janowski value misses exactly that recube.
* **Luck** of a roll: gnubg's definition at gnubg's default depth (0-ply cubeful): the
  equity after the best play of the roll that came minus the average of the same over
  all 36 rolls (the 30 possible opening rolls, for either side, for the first roll).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from .sage import CUBE_MIN_PLY, board_for, sage_module

from .context import CubeContext
from .errors import AnalysisError, gettext_noop

__all__ = ["SageEvaluator", "Candidate", "CubeEval", "CubeSearch", "CUBE_SEARCH", "evaluator", "available",
           "engine_info", "FILTERS", "CUBE_MIN_PLY"]

#: Move filters per analysis ply, gnubg's layout and its analysis default (gnubg 1.07's
#: ``show analysis`` with no settings file: MOVEFILTER_LARGE): entry *i* reads the scores at
#: ply *i* and keeps (how many candidates at most, within what equity of the best) for the
#: next scoring; ``None`` skips ply *i* (nothing is scored there). The kept ones are scored at
#: the next ply that has a filter, the last ones at the analysis ply. At 2-ply: the best 16
#: within 0.32 at 0-ply are scored at 2-ply directly (it was 8 within 0.16, gnubg's "normal"
#: filter, narrower than what gnubg's analysis uses: a best play gnubg found could be left at
#: 0-ply and every loss measured from a lesser one). The played move is always kept.
FILTERS = {
    0: (),
    1: ((16, 0.32),),
    2: ((16, 0.32), None),
    3: ((16, 0.32), None, (4, 0.08)),
}


@dataclass(frozen=True)
class CubeSearch:
    """The settings of bgsage's cube search (``cube_decision_nply_unified``): ``extra_ply``
    plies deeper than the analysis ply asks for, and the move filter of its inner nodes (at
    most ``filter_max_moves`` plays within ``filter_threshold`` of the best, by 0-ply, go on
    to the deeper look). ``bench/match_doubles_bench.py --variants`` measures others."""

    extra_ply: int = 0
    filter_max_moves: int = 5
    filter_threshold: float = 0.08


#: The cube search the analysis, hints and the tutor use (bgsage's own defaults).
CUBE_SEARCH = CubeSearch()

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
OPENING_ROLLS = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]

_lock = threading.Lock()
_cache: dict = {}


def available() -> bool:
    return sage_module() is not None


def threads() -> int:
    """C++ threads per batch: ``ANALYSIS_SAGE_THREADS`` (default 1, 0 = all cores)."""
    try:
        return int(os.environ.get("ANALYSIS_SAGE_THREADS", "1"))
    except ValueError:
        return 1


def engine_info() -> dict:
    bgsage = sage_module()
    version = getattr(bgsage, "__version__", None)
    if version is None and bgsage is not None:
        try:
            from importlib.metadata import version as dist_version  # noqa: PLC0415

            version = dist_version("bgsage")
        except Exception:  # noqa: BLE001 - metadata is informative only
            version = None
    return {"name": "bgsage", "version": version}


def _cpp():
    if sage_module() is None:
        raise AnalysisError("engine_unavailable", gettext_noop("The bgsage engine is not available on this machine."))
    import bgbot_cpp  # noqa: PLC0415 - ships with bgsage

    return bgbot_cpp


def _weights_and_db():
    """bgsage's default weights and its bear-off database (None when it cannot load)."""
    _strategies(0)
    with _lock:
        if "weights" not in _cache:
            from bgsage.weights import default_weights  # noqa: PLC0415

            _cache["weights"] = default_weights()
    return _cache["weights"], _cache["db"]


def _strategies(n_plies: int):
    """bgsage's strategies (cached): the 0-ply network and the ``n_plies``-deep search."""
    key = n_plies
    with _lock:
        found = _cache.get(key)
        if found is not None:
            return found
        cpp = _cpp()
        from bgsage.weights import bearoff_db_path, default_weights  # noqa: PLC0415

        weights = default_weights()
        if "db" not in _cache:
            db = cpp.BearoffDB()
            path = bearoff_db_path()
            _cache["db"] = db if path and db.load(path) else None
        db = _cache["db"]
        if n_plies == 0:
            strategy = cpp.create_strategy(weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list)
            if db is not None:
                strategy = cpp.BearoffStrategy(strategy, db)
        else:
            strategy = cpp.create_multipy(weights.strategy_type, weights.weight_paths_list,
                                          weights.hidden_sizes_list, n_plies=n_plies + 1,
                                          parallel_evaluate=False, parallel_threads=0)
            if db is not None:
                cpp.multipy_set_bearoff_db(strategy, db)
        _cache[key] = strategy
        return strategy


@dataclass
class Candidate:
    """One play: the board after it (bgsage's, from the mover's side), its equity and
    cubeless probabilities ``(win, win gammon, win backgammon, lose gammon, lose
    backgammon)``, and the ply it was evaluated at."""

    board: tuple
    equity: float
    probs: tuple
    ply: int


@dataclass
class CubeEval:
    """The doubler's cubeful equities (normalised) and the cubeless probabilities before the roll."""

    nd: float
    dt: float
    dp: float
    probs: tuple
    ply: int


def _owner(cpp, ctx: CubeContext):
    return {"centered": cpp.CubeOwner.CENTERED, "player": cpp.CubeOwner.PLAYER,
            "opponent": cpp.CubeOwner.OPPONENT}[ctx.owner]


class SageEvaluator:
    """Evaluations at one analysis depth (GNU Backgammon plies)."""

    def __init__(self, ply: int, cube_search: CubeSearch | None = None):
        if ply not in FILTERS:
            raise AnalysisError("bad_ply", gettext_noop("Analysis depth must be one of %(depths)s (GNU Backgammon plies)."),
                                params={"depths": ", ".join(str(p) for p in sorted(FILTERS))})
        self.ply = ply
        self.cpp = _cpp()
        self.base = _strategies(0)
        self.deep = {p: _strategies(p) for p in range(1, ply + 1)}
        self.threads = threads()
        self.cube_search = CUBE_SEARCH if cube_search is None else cube_search

    # -- boards ---------------------------------------------------------------------
    @staticmethod
    def board(position, color: str) -> list:
        return list(board_for(position, color))

    def _match_fields(self, ctx: CubeContext) -> dict:
        if ctx.is_money:
            return {}
        return {"away1": ctx.away, "away2": ctx.opponent_away, "is_crawford": ctx.crawford}

    # -- checker play ---------------------------------------------------------------
    def rolls_best(self, board: list, ctx: CubeContext, rolls: list) -> list:
        """For each roll: the 0-ply candidates, best first (``[(board, equity, probs), ...]``;
        an empty list when the roll has no legal play)."""
        cpp = self.cpp
        owner = _owner(cpp, ctx)
        inputs = [{"board": board, "die1": a, "die2": b, "cube_value": ctx.cube_value, "cube_owner": owner,
                   **self._match_fields(ctx)} for a, b in rolls]
        out = cpp.batch_checker_play(inputs, self.base, 5, 0.08, self.threads,
                                     jacoby=ctx.jacoby, beaver=ctx.beaver)
        return [[(tuple(m["board"]), m["equity"], tuple(m["probs"])) for m in r["moves"]] for r in out]

    def standing(self, board: list, ctx: CubeContext) -> float:
        """The 0-ply equity when the roll cannot be played (the board stays as it is)."""
        cpp = self.cpp
        pos = (board, _owner(cpp, ctx)) if ctx.is_money else (
            board, _owner(cpp, ctx), ctx.cube_value, ctx.away, ctx.opponent_away, ctx.crawford)
        return cpp.batch_evaluate_post_move([pos], self.base, self.threads, jacoby=ctx.jacoby)[0]["cubeful_equity"]

    def post_move(self, boards: list, ctx: CubeContext, ply: int) -> list:
        """``[(equity, probs), ...]`` of post-move boards at ``ply`` (>= 1)."""
        cpp = self.cpp
        owner = _owner(cpp, ctx)
        if ctx.is_money:
            positions = [(list(b), owner) for b in boards]
        else:
            positions = [(list(b), owner, ctx.cube_value, ctx.away, ctx.opponent_away, ctx.crawford) for b in boards]
        strategy = self.deep[ply]
        out = cpp.batch_evaluate_post_move(positions, strategy, self.threads, jacoby=ctx.jacoby)
        strategy.clear_cache()
        return [(r["cubeful_equity"], tuple(r["probs"])) for r in out]

    def checker(self, board: list, dice: tuple, ctx: CubeContext, *, keep=(), zero_ply: list | None = None,
                ply: int | None = None) -> list:
        """Every legal play as a :class:`Candidate`, best first, deeper plies first.

        ``keep``: post-move boards always evaluated at full depth (the play made).
        ``zero_ply``: the 0-ply list for these dice if already known (from the luck batch).
        """
        ply = self.ply if ply is None else ply
        if zero_ply is None:
            zero_ply = self.rolls_best(board, ctx, [tuple(dice)])[0]
        cands = {b: Candidate(b, eq, probs, 0) for b, eq, probs in zero_ply}
        keep = {tuple(b) for b in keep} & set(cands)
        level = sorted(cands.values(), key=lambda c: -c.equity)
        chosen_boards = None

        def score(boards_set, depth):
            boards = sorted(boards_set)
            for b, (eq, probs) in zip(boards, self.post_move(boards, ctx, depth)):
                cands[b] = Candidate(b, eq, probs, depth)
            return sorted((cands[b] for b in boards_set), key=lambda c: -c.equity)

        if len(cands) > 1:  # a forced play (or none) needs no look-ahead
            for at, step in enumerate(FILTERS[ply]):
                if step is None:
                    continue  # gnubg's -1: nothing is scored at this ply
                if at > 0:
                    level = score(chosen_boards, at)
                count, window = step
                best = level[0].equity
                chosen = [c for c in level if best - c.equity <= window][:count]
                chosen_boards = {c.board for c in chosen} | keep
            if chosen_boards is not None:
                score(chosen_boards, ply)
        return sorted(cands.values(), key=lambda c: (-c.ply, -c.equity))

    # -- cube -------------------------------------------------------------------------
    def cube(self, board: list, ctx: CubeContext, ply: int | None = None) -> CubeEval:
        """The cube decision of the player on roll, before rolling: bgsage's recursive
        cubeful cube search at the match score (see :data:`CUBE_MIN_PLY`)."""
        ply = self.ply if ply is None else ply
        search = self.cube_search
        ply = max(ply, CUBE_MIN_PLY) + search.extra_ply
        cpp = self.cpp
        weights, db = _weights_and_db()
        kwargs = {"jacoby": ctx.jacoby, "beaver": ctx.beaver}
        if not ctx.is_money:
            kwargs = {"away1": ctx.away, "away2": ctx.opponent_away, "is_crawford": ctx.crawford,
                      "jacoby": False, "beaver": False}
        r = cpp.cube_decision_nply_unified(
            list(board), ctx.cube_value, _owner(cpp, ctx), ply + 1, weights.strategy_type,
            weights.weight_paths_list, weights.hidden_sizes_list, filter_max_moves=search.filter_max_moves,
            filter_threshold=search.filter_threshold, n_threads=self.threads or (os.cpu_count() or 1),
            bearoff_db=db, **kwargs)
        return CubeEval(r["equity_nd"], r["equity_dt"], r["equity_dp"], tuple(r["probs"]), ply)

    # -- luck -----------------------------------------------------------------------------
    def luck(self, position, color: str, dice: tuple, ctx: CubeContext, *, opening: bool = False):
        """``(luck, zero_ply list of the actual roll)``: gnubg's luck of ``dice`` for ``color``."""
        board = self.board(position, color)
        actual = tuple(sorted(dice))
        if opening and dice[0] != dice[1]:
            opp_board = self.board(position, _other(color))
            mine = self.rolls_best(board, ctx, OPENING_ROLLS)
            theirs = self.rolls_best(opp_board, ctx.flipped(), OPENING_ROLLS)
            values = [self._best(board, r, ctx) for r in mine]
            values += [-self._best(opp_board, r, ctx.flipped()) for r in theirs]
            index = OPENING_ROLLS.index(actual)
            return values[index] - sum(values) / len(values), mine[index]
        lists = self.rolls_best(board, ctx, ROLLS)
        values = [self._best(board, r, ctx) for r in lists]
        mean = sum(v * (1 if a == b else 2) for v, (a, b) in zip(values, ROLLS)) / 36.0
        index = ROLLS.index(actual)
        return values[index] - mean, lists[index]

    def _best(self, board: list, candidates: list, ctx: CubeContext) -> float:
        if candidates:
            return candidates[0][1]
        return self.standing(board, ctx)

    # -- match equity -----------------------------------------------------------------------
    def mwc_per_equity(self, ctx: CubeContext) -> float:
        """Match-winning chance (0..1) of one unit of normalised equity at this score and cube."""
        if ctx.is_money:
            return 0.0
        cpp = self.cpp
        args = (ctx.away, ctx.opponent_away, ctx.cube_value, ctx.crawford)
        return cpp.eq2mwc(1.0, *args) - cpp.eq2mwc(0.0, *args)


def _other(color: str) -> str:
    return "black" if color == "white" else "white"


_evaluators: dict = {}


def evaluator(ply: int) -> SageEvaluator:
    """A cached :class:`SageEvaluator` for ``ply`` (raises ``engine_unavailable`` / ``bad_ply``)."""
    found = _evaluators.get(ply)
    if found is None:
        found = _evaluators[ply] = SageEvaluator(ply)
    return found

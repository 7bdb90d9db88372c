"""Analysis of one game (and of a match, game by game) from its event log.

:func:`analyse_game` replays a game's events (``{"type", "payload"}`` as stored in
``GameEvent``, or as :mod:`games.interchange` builds them) through the engine and
evaluates every decision: each roll's luck, each cube decision (the no-double of a
player who could have doubled and rolled, a double, a take / drop / beaver) and each
checker play that was not forced. It needs nothing but the game's own events (the
score and match length are in its ``game_start``), so a worker can analyse game ``k``
of a match on its own; :func:`analyse_match` runs all games with one progress
callback, and :func:`match_summary` builds a match's statistics from stored game
analyses. The JSON shape is documented in ``docs/ANALYSIS.md``.
"""

from __future__ import annotations

import time
from typing import Callable

from games.engine.errors import EngineError, Message
from games.engine.gnubgid import state_ids
from games.engine.notation import format_play
from games.engine.replay import replay_steps

from .context import cube_available, cube_context
from .errors import AnalysisError, gettext_noop
from .marks import CLOSE_CUBE, LUCK, SKILL, is_close_cube, luck_mark, skill_mark
from .stats import add_decision, merge, new_raw, summary

__all__ = ["analyse_game", "analyse_match", "match_summary", "FORMAT", "DEFAULT_PLY", "ALTERNATIVES"]

FORMAT = "analysis/1"
DEFAULT_PLY = 2
ALTERNATIVES = 10  # best plays kept per checker decision (the play made is always kept)

Progress = Callable[[float, str], None]


def ranked(cands: list) -> list:
    """The candidates as the page lists them: the best at the deepest look first (the
    reference of every loss), then every other play by equity, the play made in its place.

    The evaluator returns deeper plies first (gnubg's order), which put a play looked at
    deeper above a better one the filter left at a shallower ply. Shallower equities are
    quicker estimates; each alternative carries its ``ply``.
    """
    if not cands:
        return []
    return [cands[0]] + sorted(cands[1:], key=lambda c: -c.equity)


def _r(x: float, digits: int = 5) -> float:
    return round(float(x), digits)


def _probs(p) -> dict:
    return {"win": _r(p[0], 4), "winGammon": _r(p[1], 4), "winBackgammon": _r(p[2], 4),
            "loseGammon": _r(p[3], 4), "loseBackgammon": _r(p[4], 4)}


def _events(events) -> list:
    out = []
    for index, event in enumerate(events):
        kind = event.get("type", event.get("t"))
        data = event.get("payload", event.get("d")) or {}
        out.append((index, event.get("version"), kind, data))
    return out


class _GameAnalyser:
    def __init__(self, events: list, ply: int, evaluator, alternatives: int):
        self.events = _events(events)
        if not self.events or self.events[0][2] != "game_start":
            raise AnalysisError("bad_events", gettext_noop("A game's event log starts with game_start."))
        start = self.events[0][3]
        self.start = start
        self.length = start.get("matchLength", 0) or 0
        self.score = tuple(start.get("score", (0, 0)))
        self.ev = evaluator
        self.ply = ply
        self.alternatives = alternatives
        self.decisions: list = []
        self.pending = None  # the "move" decision waiting for its play
        self.pending_cube = None  # the double waiting for its answer

    # -- helpers ------------------------------------------------------------------------
    def ctx(self, state, color):
        return cube_context(state, color, match_length=self.length, score=self.score)

    def cost(self, loss: float, ctx) -> float:
        if ctx.is_money:
            return _r(loss * ctx.cube_value)
        return _r(loss * self.ev.mwc_per_equity(ctx), 6)

    def cube_json(self, state, color, ctx) -> tuple:
        cube = self.ev.cube(self.ev.board(state.position, color), ctx)
        optimal = max(cube.nd, min(cube.dt, cube.dp))
        best = "no_double" if cube.nd >= min(cube.dt, cube.dp) else (
            "double_take" if cube.dt <= cube.dp else "double_pass")
        out = {
            "nd": _r(cube.nd), "dt": _r(cube.dt), "dp": _r(cube.dp),
            "best": best, "tooGood": cube.nd > cube.dp, "takeRight": "take" if cube.dt <= cube.dp else "pass",
            "close": is_close_cube(cube.nd, cube.dt, cube.dp), "ply": cube.ply, "probs": _probs(cube.probs),
        }
        return out, optimal, cube

    def where(self, index, version, state, color) -> dict:
        return {"event": index, "version": version, "player": color, "turn": state.turn_number,
                "position": state.position.to_dict(),
                "cubeValue": state.cube_value, "cubeOwner": state.cube_owner,
                "gnubgId": state_ids(state, match_length=self.length, score=self.score)["gnubgId"]}

    # -- the decisions --------------------------------------------------------------------
    def on_roll(self, index, version, before, after, color, dice, opening: bool) -> None:
        entry = {"kind": "move", **self.where(index, version, after, color), "dice": list(dice),
                 "cube": None, "luck": None, "play": None}
        if not opening and before is not None and cube_available(before, color, self.ctx(before, color)):
            ctx = self.ctx(before, color)
            cube, optimal, _ = self.cube_json(before, color, ctx)
            loss = max(0.0, optimal - cube["nd"])
            cube.update(loss=_r(loss), cost=self.cost(loss, ctx), mark=skill_mark(loss), action="no_double")
            entry["cube"] = cube
        ctx = self.ctx(after, color)
        luck, zero_ply = self.ev.luck(after.position, color, tuple(dice), ctx, opening=opening)
        entry["luck"] = {"value": _r(luck), "cost": self.cost(luck, ctx), "mark": luck_mark(luck)}
        entry["_zero_ply"] = zero_ply
        self.flush()
        self.pending = entry

    def on_move(self, index, version, before, after, color, data) -> None:
        entry = self.pending
        if entry is None or entry["player"] != color:  # pragma: no cover - a move always follows a roll
            entry = {"kind": "move", **self.where(index, version, before, color), "dice": list(before.dice),
                     "cube": None, "luck": None, "play": None}
        self.pending = None
        entry["event"], entry["version"] = index, version
        plays = before.legal_plays()
        played_board = tuple(self.ev.board(after.position, color))
        played_text = data.get("notation") or format_play(before.position, after.last_play)
        play = {"moves": [s.to_dict() for s in after.last_play], "notation": played_text,
                "forced": len(plays) <= 1}
        zero_ply = entry.pop("_zero_ply", None)
        if not play["forced"]:
            ctx = self.ctx(before, color)
            board = self.ev.board(before.position, color)
            cands = self.ev.checker(board, tuple(before.dice), ctx, keep=[played_board], zero_ply=zero_ply)
            by_board = {tuple(self.ev.board(p.result, color)): p for p in plays}
            best = cands[0]
            listed = []
            for rank, cand in enumerate(ranked(cands), start=1):
                p = by_board.get(cand.board)
                if p is None:  # pragma: no cover - bgsage and the engine agree on legal plays
                    continue
                if cand.board == played_board:
                    play["rank"] = rank
                    play["equity"] = _r(cand.equity)
                    play["ply"] = cand.ply
                if rank <= self.alternatives or cand.board == played_board:
                    listed.append({"rank": rank, "moves": p.to_list(), "notation": format_play(before.position, p),
                                   "equity": _r(cand.equity), "loss": _r(max(0.0, best.equity - cand.equity)),
                                   "ply": cand.ply, "probs": _probs(cand.probs), "played": cand.board == played_board})
            if "equity" not in play:  # pragma: no cover - bgsage and the engine agree on legal plays
                raise AnalysisError("engine_mismatch", gettext_noop(
                    "Event %(index)s: the evaluator does not know the play made (%(play)s); no numbers are "
                    "given rather than wrong ones."), params={"index": index, "play": played_text})
            loss = max(0.0, best.equity - play["equity"])
            play.update(loss=_r(loss), cost=self.cost(loss, ctx), mark=skill_mark(loss),
                        candidates=len(cands), alternatives=listed)
        entry["play"] = play
        self.decisions.append(entry)

    def on_double(self, index, version, before, color) -> None:
        self.flush()
        ctx = self.ctx(before, color)
        cube, optimal, raw = self.cube_json(before, color, ctx)
        loss = max(0.0, optimal - min(raw.dt, raw.dp))
        entry = {"kind": "double", **self.where(index, version, before, color), "cube": cube,
                 "loss": _r(loss), "cost": self.cost(loss, ctx), "mark": skill_mark(loss), "close": True}
        self.decisions.append(entry)
        self.pending_cube = (cube, raw, ctx)

    def on_answer(self, index, version, before, kind, color) -> None:
        if self.pending_cube is None:  # pragma: no cover - an answer always follows a double
            return
        cube, raw, ctx = self.pending_cube
        self.pending_cube = None
        loss = max(0.0, raw.dp - raw.dt) if kind == "drop" else max(0.0, raw.dt - raw.dp)
        self.decisions.append({"kind": kind, **self.where(index, version, before, color), "cube": cube,
                               "loss": _r(loss), "cost": self.cost(loss, ctx), "mark": skill_mark(loss),
                               "close": True})

    def flush(self) -> None:
        """A roll that was never played (a resignation followed): keep its luck and cube."""
        if self.pending is not None:
            self.pending.pop("_zero_ply", None)
            self.decisions.append(self.pending)
            self.pending = None

    # -- the walk ------------------------------------------------------------------------------
    def _steps(self):
        """``(index, version, kind, data, before, after)`` for each event, replayed by
        :func:`games.engine.replay.replay_steps`; an event that does not replay is ``bad_events``."""
        steps = replay_steps([{"type": kind, "payload": data} for _i, _v, kind, data in self.events])
        before = None
        for index, version, kind, data in self.events:
            try:
                _event, after = next(steps)
            except (EngineError, KeyError, TypeError, ValueError, AttributeError) as exc:
                reason = exc if isinstance(exc, EngineError) else str(exc)  # an engine refusal is worded when read
                raise AnalysisError("bad_events", gettext_noop("Event %(index)s (%(kind)s) does not replay: %(reason)s"),
                                    params={"index": index, "kind": kind, "reason": reason}) from None
            yield index, version, kind, data, before, after
            before = after

    def run(self, progress: Progress | None) -> dict:
        work = [e for e in self.events if e[2] in ("roll", "move", "double", "take", "drop", "beaver")
                or (e[2] == "opening_roll" and e[3].get("first"))]
        done = 0
        result = None
        state = None
        for index, version, kind, data, before, state in self._steps():
            if kind == "game_end":
                result = data
                continue
            if kind == "opening_roll" and state.phase == "move":
                self.on_roll(index, version, None, state, state.position.turn, state.dice, True)
            elif kind == "roll":
                self.on_roll(index, version, before, state, data["color"], tuple(data["dice"]), False)
            elif kind == "move":
                self.on_move(index, version, before, state, data["color"], data)
            elif kind == "double":
                self.on_double(index, version, before, data["color"])
            elif kind in ("take", "drop", "beaver"):
                self.on_answer(index, version, before, kind, data["color"])
            else:
                continue
            done += 1
            if progress is not None:
                progress(done / max(1, len(work)), Message(gettext_noop("decision %(decision)s of %(decisions)s"),
                                                             {"decision": done, "decisions": len(work)}))
        self.flush()
        players = {"white": new_raw(), "black": new_raw()}
        for decision in self.decisions:
            add_decision(players, decision)
        return {"decisions": self.decisions, "raw": players, "result": result, "final": state}


def _engine_block(ply: int, evaluator) -> dict:
    from . import sage_eval  # noqa: PLC0415 - only for the description

    info = sage_eval.engine_info() if evaluator is None or isinstance(evaluator, sage_eval.SageEvaluator) else {
        "name": type(evaluator).__name__, "version": None}
    search = getattr(evaluator, "cube_search", sage_eval.CUBE_SEARCH)
    return {**info, "ply": ply, "filters": [list(f) if f else None for f in sage_eval.FILTERS.get(ply, ())],
            "cube": "cubeful-search", "cubePly": max(ply, sage_eval.CUBE_MIN_PLY) + search.extra_ply, "luckPly": 0}


def analyse_game(events: list, *, ply: int = DEFAULT_PLY, progress: Progress | None = None,
                 evaluator=None, alternatives: int = ALTERNATIVES) -> dict:
    """Analyse one game from its events; returns the game's analysis JSON (a dict).

    ``ply``: analysis depth in GNU Backgammon plies (0..3; default 2). ``progress``:
    called as ``progress(fraction, message)`` after each decision. ``evaluator``:
    defaults to bgsage (:func:`games.analysis.sage_eval.evaluator`). Raises
    :class:`~games.analysis.errors.AnalysisError` (``bad_events``, ``bad_ply``,
    ``engine_unavailable``).
    """
    if evaluator is None:
        from .sage_eval import evaluator as sage_evaluator  # noqa: PLC0415

        evaluator = sage_evaluator(ply)
    started = time.perf_counter()
    analyser = _GameAnalyser(events, ply, evaluator, alternatives)
    out = analyser.run(progress)
    start = analyser.start
    return {
        "format": FORMAT,
        "engine": _engine_block(ply, evaluator),
        "thresholds": {**SKILL, **LUCK, "closeCube": CLOSE_CUBE},
        "game": {
            "number": start.get("number"), "matchLength": analyser.length, "score": list(analyser.score),
            "crawfordGame": bool(start.get("crawfordGame")), "rules": start.get("rules"),
            "result": out["result"],
        },
        "costUnit": "points" if not analyser.length else "mwc",
        "decisions": out["decisions"],
        "stats": {color: summary(raw) for color, raw in out["raw"].items()},
        "seconds": round(time.perf_counter() - started, 3),
    }


def match_summary(game_analyses: list) -> dict:
    """A match's statistics from its games' analyses (as returned by :func:`analyse_game`,
    or stored and read back): per player the same fields as a game's ``stats``."""
    out = {}
    for color in ("white", "black"):
        out[color] = summary(merge([g["stats"][color]["raw"] for g in game_analyses]))
    return out


def analyse_match(games: list, *, ply: int = DEFAULT_PLY, progress: Progress | None = None,
                  evaluator=None, alternatives: int = ALTERNATIVES) -> dict:
    """Analyse every game of a match (``games``: each game's event list, in order).

    ``progress(fraction, message)`` runs from 0 to 1 over the whole match (weighted by
    each game's number of events). Each game is analysed on its own (see
    :func:`analyse_game`); the match statistics are :func:`match_summary` of them.
    """
    sizes = [max(1, len(g)) for g in games]
    total = float(sum(sizes)) or 1.0
    done = 0
    analyses = []
    for number, events in enumerate(games, start=1):
        base = done

        def sub(fraction, message, _base=base, _size=sizes[number - 1], _n=number):
            if progress is not None:
                # analyse_game's one line, "decision 3 of 40", within the match's
                params = {"decision": 0, "decisions": 0, **getattr(message, "params", {}), "game": _n, "games": len(games)}
                progress((_base + fraction * _size) / total, Message(gettext_noop(
                    "game %(game)s of %(games)s: decision %(decision)s of %(decisions)s"), params))

        analyses.append(analyse_game(events, ply=ply, progress=sub, evaluator=evaluator, alternatives=alternatives))
        done += sizes[number - 1]
        if progress is not None:
            progress(done / total, Message(gettext_noop("game %(game)s of %(games)s analysed"),
                                           {"game": number, "games": len(games)}))
    first = analyses[0] if analyses else None
    return {
        "format": FORMAT,
        "engine": first["engine"] if first else _engine_block(ply, evaluator),
        "matchLength": first["game"]["matchLength"] if first else None,
        "costUnit": first["costUnit"] if first else None,
        "games": analyses,
        "stats": match_summary(analyses),
        "seconds": round(sum(a["seconds"] for a in analyses), 3),
    }

"""The analysis and hints with the real bgsage engine (small cases, known answers)."""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from games import analysis
from games.analysis import AnalysisError, analyse_game, check_cube, check_play, hint, marks, sage_eval
from games.analysis.context import cube_context
from games.engine import GameRules, GameState, MatchRules, MatchState
from games.interchange.record import GameRecorder

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "analysis_match.json"
BEST_31 = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]
RUN_31 = [{"from": 24, "to": 21}, {"from": 21, "to": 20}]


def test_marks_doctests():
    assert doctest.testmod(marks).failed == 0


def _blunders():
    """White opens 3-1 with 24/20; Black doubles at once; White drops."""
    rec = GameRecorder.start(MatchState.new(MatchRules(length=7)), number=1)
    rec.opening(3, 1)
    rec.move(RUN_31)
    rec.double()
    rec.drop()
    rec.finish()
    return rec.events


@pytest.mark.parametrize("ply", [0, 1])
def test_known_blunders_are_found(ply):
    out = analyse_game(_blunders(), ply=ply)
    move, double, drop = out["decisions"]
    assert move["play"]["alternatives"][0]["notation"] == "8/5 6/5"
    assert move["play"]["mark"] == "very_bad" and move["play"]["loss"] > 0.12
    assert move["play"]["ply"] == ply  # the play made is evaluated at full depth
    assert move["luck"]["value"] > 0  # 3-1 is a good opening roll for the side that rolls it
    assert double["cube"]["best"] == "no_double" and double["mark"] == "very_bad"
    assert drop["cube"]["takeRight"] == "take" and drop["mark"] == "very_bad"
    assert drop["loss"] == pytest.approx(1.0 - double["cube"]["dt"], abs=1e-4)  # DP is +1 normalised
    assert out["engine"]["name"] == "bgsage" and out["engine"]["ply"] == ply
    assert 0 < drop["cost"] < 1  # match winning chance


def test_a_recorded_game_at_two_ply():
    games = json.loads(FIXTURE.read_text())["games"]
    out = analyse_game(games[0], ply=2)
    assert [d["kind"] for d in out["decisions"]][-2:] == ["double", "drop"]
    for d in out["decisions"]:
        if d["kind"] == "move" and not d["play"]["forced"]:
            alts = d["play"]["alternatives"]
            assert alts[0]["ply"] == 2 and alts[0]["loss"] == 0
            assert any(a["played"] for a in alts)
    assert out["stats"]["white"]["overall"]["decisions"] >= 3


def test_the_played_move_is_kept_at_full_depth():
    ev = sage_eval.evaluator(2)
    state = GameState.new(GameRules()).opening_roll(3, 1)
    ctx = cube_context(state, "white", match_length=7)
    played = state.move("white", RUN_31).position
    keep = tuple(ev.board(played, "white"))
    cands = ev.checker(ev.board(state.position, "white"), (3, 1), ctx, keep=[keep])
    by_board = {c.board: c for c in cands}
    assert by_board[keep].ply == 2 and cands[0].ply == 2
    assert len(cands) == len(state.legal_plays())
    assert [c.ply for c in cands] == sorted((c.ply for c in cands), reverse=True)


def test_hints_and_the_tutor():
    state = GameState.new(GameRules()).opening_roll(3, 1)
    answer = hint(state, match_length=5)
    assert answer["kind"] == "play" and answer["plays"][0]["notation"] == "8/5 6/5"
    assert answer["plays"][0]["loss"] == 0 and len(answer["plays"]) == 5
    check = check_play(state, RUN_31, match_length=5)
    assert check["mark"] == "very_bad" and check["best"]["notation"] == "8/5 6/5"
    assert check_play(state, BEST_31, match_length=5)["loss"] == 0
    after = state.move("white", BEST_31)
    assert hint(after)["action"] == "roll"  # money: no double after the opening
    assert check_cube(after, "roll")["loss"] == 0
    assert check_cube(after, "double")["mark"] == "very_bad"
    doubled = after.double("black")
    assert hint(doubled)["action"] == "take"
    assert check_cube(doubled, "drop")["mark"] == "very_bad" and check_cube(doubled, "take")["loss"] == 0
    with pytest.raises(AnalysisError) as exc:
        check_cube(doubled, "double")
    assert exc.value.code == "wrong_phase"
    with pytest.raises(AnalysisError) as exc:
        check_play(state, [{"from": 24, "to": 18}])
    assert exc.value.code == "bad_play"
    with pytest.raises(AnalysisError) as exc:
        hint(GameState.new(GameRules()))
    assert exc.value.code == "wrong_phase"


def test_missing_engine_is_a_typed_error(monkeypatch):
    monkeypatch.setattr(sage_eval, "sage_module", lambda: None)
    monkeypatch.setattr(sage_eval, "_evaluators", {})
    with pytest.raises(AnalysisError) as exc:
        analysis.analyse_game(_blunders(), ply=1)
    assert exc.value.code == "engine_unavailable"
    with pytest.raises(AnalysisError) as exc:
        sage_eval.SageEvaluator(9)
    assert exc.value.code in ("bad_ply", "engine_unavailable")


def test_a_second_thread_waits_for_the_first_ones_import_of_bgsage(monkeypatch):
    """Two worker threads starting their first analysis at once: the second must get the
    module the first is importing, not None ("checked", module not there yet), which failed
    its analysis with engine_unavailable."""
    import importlib.abc
    import importlib.util
    import sys
    import threading

    from games.analysis import sage

    real = sage.sage_module()
    assert real is not None
    entered, release = threading.Event(), threading.Event()

    class SlowImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path=None, target=None):
            return importlib.util.spec_from_loader(name, self) if name == "bgsage" else None

        def create_module(self, spec):
            entered.set()
            release.wait(30)  # the first thread is inside the import until the test lets it go
            return real

        def exec_module(self, module):
            pass

    monkeypatch.delitem(sys.modules, "bgsage")
    monkeypatch.setattr(sys, "meta_path", [SlowImport(), *sys.meta_path])
    sage.reset()
    got = {}
    first = threading.Thread(target=lambda: got.setdefault("first", sage.sage_module()))
    second = threading.Thread(target=lambda: got.setdefault("second", sage.sage_module()))
    try:
        first.start()
        assert entered.wait(30)
        second.start()
    finally:
        release.set()
    first.join(30)
    second.join(30)
    monkeypatch.setitem(sys.modules, "bgsage", real)
    sage.reset()
    assert got == {"first": real, "second": real}

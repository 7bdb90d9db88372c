"""The cube search the analysis asks bgsage for: its depth and its move filter.

``sage_eval.CUBE_SEARCH`` is the site's setting (docs/ANALYSIS.md, "Why doubles, takes and
drops disagree": deeper searches were measured against gnubg and agree less); the analysis
of a double, hints and ``bench/match_doubles_bench.py --variants`` pass it (or another
:class:`CubeSearch`) to ``cube_decision_nply_unified``. Checked here with the real engine,
the arguments seen by bgsage recorded on the way.
"""
from __future__ import annotations

import pytest

from games.analysis import analyse_game, sage_eval
from games.analysis.sage_eval import CubeSearch
from games.engine import MatchRules, MatchState
from games.interchange.record import GameRecorder

pytestmark = pytest.mark.skipif(not sage_eval.available(), reason="bgsage is not installed")


@pytest.fixture
def searches(monkeypatch):
    """The (n_plies, filter_max_moves, filter_threshold) of every bgsage cube search."""
    cpp = sage_eval._cpp()
    real = cpp.cube_decision_nply_unified
    seen = []

    def spy(checkers, cube_value, owner, n_plies, *args, **kwargs):
        seen.append((n_plies, kwargs["filter_max_moves"], kwargs["filter_threshold"]))
        return real(checkers, cube_value, owner, n_plies, *args, **kwargs)

    monkeypatch.setattr(cpp, "cube_decision_nply_unified", spy)
    return seen


def _a_double():
    """7 points: White opens 3-1 with 8/5 6/5, Black doubles at once and White drops."""
    rec = GameRecorder.start(MatchState.new(MatchRules(length=7)), number=1)
    rec.opening(3, 1)
    rec.move([{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    rec.double()
    rec.drop()
    rec.finish()
    return rec.events


def test_the_site_setting_is_bgsages_own_search_at_the_analysis_depth():
    # Measured against gnubg 1.07 at 2-ply: one ply deeper agrees on fewer doubles
    # (70 of 75 instead of 71) for 13 times the CPU; the filter changes no equity.
    assert sage_eval.CUBE_SEARCH == CubeSearch(extra_ply=0, filter_max_moves=5, filter_threshold=0.08)


def test_the_analysis_of_a_double_uses_the_site_setting(searches):
    out = analyse_game(_a_double(), ply=1)
    double = next(d for d in out["decisions"] if d["kind"] == "double")
    assert double["cube"]["ply"] == 1 and out["engine"]["cubePly"] == 1
    # bgsage counts the raw network as a ply: the analysis' 1-ply is its "2ply"
    assert searches and all(s == (2, 5, pytest.approx(0.08)) for s in searches)


def test_another_search_goes_deeper(searches):
    ev = sage_eval.SageEvaluator(1, cube_search=CubeSearch(extra_ply=1, filter_max_moves=2, filter_threshold=0.04))
    out = analyse_game(_a_double(), ply=1, evaluator=ev)
    double = next(d for d in out["decisions"] if d["kind"] == "double")
    assert double["cube"]["ply"] == 2 and out["engine"]["cubePly"] == 2
    assert searches and all(s == (3, 2, pytest.approx(0.04)) for s in searches)

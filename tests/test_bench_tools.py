"""The benchmark helpers run and say what they measured (never how fast: that is theirs to print)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.reference import describe

ROOT = Path(__file__).resolve().parents[1]


def test_the_reference_calls_a_machine_steady_only_when_its_median_is_near_its_fastest():
    assert describe([100.0] * 15 + [104.0] * 4 + [250.0]).endswith(": steady")
    assert "NOT steady" in describe([100.0] * 5 + [160.0] * 15)


@pytest.mark.slow
def test_move_cost_plays_moves_through_the_services_and_prints_their_cost():
    run = subprocess.run([sys.executable, "bench/move_cost.py", "--db", "sqlite", "--games", "3", "--moves", "40",
                          "--rounds", "2"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "machine reference" in run.stdout
    rounds = re.findall(r"sqlite: ([\d.]+) ms CPU per move .*, (\d+) moves", run.stdout)
    assert len(rounds) == 2, run.stdout
    assert all(float(ms) > 0 and int(moves) >= 40 for ms, moves in rounds)


@pytest.mark.slow
def test_the_correspondence_sweep_bench_reads_the_deadline_index_and_awards_what_is_due(postgres_url):
    run = subprocess.run([sys.executable, "bench/corr_sweep_bench.py", "--matches", "300", "--due", "3",
                          "--rounds", "2"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:] + run.stdout[-3000:]
    assert "both read a range of the index on clock_deadline: yes" in run.stdout
    assert "first sweep: 3 matches awarded" in run.stdout and "second sweep: 0 matches awarded" in run.stdout


def test_the_gnubg_agreement_bench_pairs_decisions_and_reads_gnubgs_cube_equities_as_match_winning_chances():
    pytest.importorskip("bgsage")
    from bench.gnubg_agreement_bench import pair_match
    from games.analysis import sage_eval

    cpp = sage_eval.evaluator(0).cpp
    # a 5-point match at 1-2 (White 4-away, Black 3-away), cube 1: gnubg gives equities as MWC
    mwc = lambda emg, away, opp: cpp.eq2mwc(emg, away, opp, 1, False)  # noqa: E731
    game = {"game": {"matchLength": 5, "score": [1, 2], "crawfordGame": False}, "decisions": [
        {"kind": "move", "player": "white", "cubeValue": 1, "dice": [3, 1],
         "cube": {"loss": 0.0, "mark": None},
         "play": {"forced": False, "loss": 0.08, "mark": "bad"}},
        {"kind": "double", "player": "black", "cubeValue": 1, "cubeOwner": None, "loss": 0.0, "mark": None,
         "cube": {"nd": 0.5, "dt": 0.95}},
        {"kind": "drop", "player": "white", "cubeValue": 1, "cubeOwner": None, "loss": 0.0, "mark": None,
         "cube": {"nd": 0.5, "dt": 0.95}},
    ]}
    records = [
        {"action": "move", "dice": [1, 3], "analysis": {
            "nd-cubeful-eq": mwc(0.2, 4, 3), "dt-cubeful-eq": mwc(0.1, 4, 3), "imove": 1, "skill": "bad",
            "moves": [{"score": 0.30}, {"score": 0.21}]}},
        # Black doubles: no double 0.5, double/take 0.9 (a take is right, and the drop a 0.1 error)
        {"action": "double", "analysis": {"nd-cubeful-eq": mwc(0.5, 3, 4), "dt-cubeful-eq": mwc(0.9, 3, 4)}},
        {"action": "drop"},
    ]
    rows = {"checker": [], "no_double": [], "double": [], "take": []}
    cases = []
    assert pair_match({"games": [game]}, {"games": [{"records": records}]}, rows, cases) == 0
    # --show: the drop is the one cube decision marked differently, with gnubg's equities in EMG
    assert [(c["kind"], c["player"], c["score"], c["marks"]) for c in cases] == [("drop", "white", [1, 2], (None, "bad"))]
    assert cases[0]["gnubg"] == (pytest.approx(0.5, abs=1e-6), pytest.approx(0.9, abs=1e-6))
    assert rows["checker"] == [(0.08, pytest.approx(0.09), "bad", "bad")]
    assert rows["no_double"] == [(0.0, pytest.approx(0.0, abs=1e-6), None, None)]
    assert rows["double"] == [(0.0, pytest.approx(0.0, abs=1e-6), None, None)]
    assert rows["take"] == [(0.0, pytest.approx(0.1, abs=1e-6), None, "bad")]
    # decisions out of step (other dice) are left out, not paired wrongly
    records[0]["dice"] = [5, 2]
    rows = {"checker": [], "no_double": [], "double": [], "take": []}
    assert pair_match({"games": [game]}, {"games": [{"records": records}]}, rows) == 1
    assert not any(rows.values())


def test_the_doubles_bench_measures_other_cube_searches_against_the_same_gnubg_equities(capsys):
    pytest.importorskip("bgsage")
    import argparse

    from bench.match_doubles_bench import parse_variant, variants_table
    from games.analysis.sage_eval import CubeSearch
    from tests.analysis.test_cube_search import _a_double

    assert parse_variant("1/16/0.32") == CubeSearch(extra_ply=1, filter_max_moves=16, filter_threshold=0.32)
    with pytest.raises(argparse.ArgumentTypeError):
        parse_variant("deeper")
    # Black doubles at once after White's 3-1 and White drops; gnubg's (made-up) equities
    # ND 0.5, DT 0.9: the double right, the drop a 0.1 error (bad)
    matches = [{"length": 7, "games": [_a_double()]}]
    variants_table(matches, 1, [CubeSearch(), CubeSearch(extra_ply=1)], [(0.5, 0.9)])
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if re.match(r"\d-ply, 5 within 0.08", line)]
    assert [r.split(",")[0] for r in rows] == ["1-ply", "2-ply"]
    for row in rows:  # the site calls the double a blunder and the drop right: no agreement
        assert re.search(r" 0/1 +0\.0% +0/1 +0\.0% .* ms$", row), row
    assert sum("gnubg ND +0.500 DT +0.900 (None, 'bad')" in line for line in lines) == 2

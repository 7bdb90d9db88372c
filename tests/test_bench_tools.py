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

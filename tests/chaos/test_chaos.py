"""The short variant of ``bench/chaos.py`` that CI runs: every fault scenario on 1-point
matches, ten at once (two web processes and a worker on PostgreSQL + a Redis of its own). It asserts
what the bench checks (no acknowledged action lost, no gap, no player left more than 5 s
behind, no 5xx outside the fault, no presence row left, every match finished), never a
timing of its own. The long run is ``bench/chaos.py`` (3-point matches, more players)."""

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.support import free_port
from tests.support import require_postgres

pytestmark = [pytest.mark.slow, pytest.mark.chaos]

BENCH = Path(__file__).resolve().parents[2] / "bench" / "chaos.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("chaos_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_fault_scenario_loses_nothing_and_leaves_nobody_behind(tmp_path, capsys):
    require_postgres()
    chaos = load_bench()
    rows = chaos.run(chaos.SCENARIOS, pairs=4, bots=2, agents=4, length=1, fault_after=3.0, timeout=240.0,
                     redis_port=free_port(), tmp=tmp_path)
    table = chaos.table(rows)
    with capsys.disabled():
        print("\n" + table)
    assert [r["scenario"] for r in rows] == list(chaos.SCENARIOS)
    assert all(r["acked"] > 0 for r in rows), table  # the players really played
    assert not [r["scenario"] for r in rows if chaos.failed(r)], table

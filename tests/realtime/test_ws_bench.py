"""The capacity benchmark (bench/ws_bench.py), short: real Daphne processes, real sockets,
two processes sharing games over the bus. Asserts that every move reached every socket
with no error and nothing lost, never how fast (the figures are the benchmark's job)."""

import importlib.util
import re
from pathlib import Path

import pytest

from tests.support import require_redis

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ws_bench.py"


def run_bench(*args):
    spec = importlib.util.spec_from_file_location("ws_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(["--games", "26", "--rates", "5,10", "--step-duration", "2", "--fanout-rate", "5",
                        "--fanout-duration", "2", "--servers", "2", *args])


def check(result):
    assert result["tracebacks"] == []
    assert result["stray_errors"] == {}
    steps = result["steps"] + [step for _, _, step in result["fanout"]]
    assert len(steps) >= 4  # the two fan-out steps, then at least one step on one and on two processes
    for step in steps:
        assert step.errors == {} and step.lost == 0, step.line()
        assert step.sent > 0 and len(step.latency) == step.sent, step.line()  # every move reached every socket


def test_the_benchmark_runs_clean_on_the_embedded_bus():
    # Idle like browsers: 7 s of idle in the fan-out phase, longer than the server's ping.
    result = run_bench("--fanout-duration", "7")
    check(result)
    assert result["server_pings"] > 0  # the server pinged the idle sockets itself


def test_the_old_browser_clients_remain_an_option():
    result = run_bench("--pings", "old-browser", "--fanout-duration", "4", "--servers", "1")
    check(result)  # their idle pings are answered, never refused
    assert result["pings"] > 0 and result["pongs"] >= result["pings"]


def test_the_benchmark_pings_as_often_as_the_browser():
    from tests.live import GameClient

    script = (BENCH.parents[1] / "static" / "js" / "lib" / "socket.mjs").read_text()
    browser_ms = int(re.search(r"options\.pingEvery \?\? (\d+)", script).group(1))
    assert GameClient.PING_EVERY * 1000 == browser_ms  # the bench and the test clients use this one


@pytest.mark.redis
def test_the_benchmark_runs_clean_on_a_redis_of_its_own():
    require_redis()  # the same redis-server binary CI installs
    check(run_bench("--redis"))

"""The pairing bench runs and says what it measured (never how fast: that is its to print)."""

import re

from bench.tournament_bench import main


def test_the_bench_times_each_round_and_the_worst_case(capsys):
    main(["--entrants", "24", "--rounds", "4", "--repeat", "1", "--stuck", "6", "--no-reference"])
    out = capsys.readouterr().out
    assert re.findall(r"round (\d): 12 pairs, pairing +[\d.]+ ms CPU, +[\d.]+ ms wall, repeats 0", out) == list("1234")
    assert "the last 6 have all met" in out and out.rstrip().endswith("repeats 0")

"""The short variant of ``bench/tournament_api_bench.py`` that CI runs: bot-API agents enter a
Swiss over HTTP and play every pairing through the API, alternating between two web
processes on PostgreSQL + Redis, until the event is finished; no error answer, no traceback,
and standings that hold together (every round played, everyone paired once a round, no
pairing twice). The full run (64 agents, 5 rounds) and its figures: docs/DEPLOY.md."""

import pytest

from bench import tournament_api_bench as bench
from tests.support import require_postgres, require_redis

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def test_agents_play_a_swiss_through_the_api_on_two_web_processes(tmp_path, capsys):
    require_postgres()
    redis_url = require_redis()
    result = bench.run(agents=8, rounds=3, length=1, tmp=tmp_path / "site", redis_url=redis_url, timeout=240,
                       resign_after=4, detail_every=2)  # a short event: see its end within 2 s
    with capsys.disabled():
        print()
        problems = bench.report(result)
    assert problems == []
    rounds = result["figures"]["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3] and all(r["matches"] == 4 for r in rounds)
    assert result["figures"]["status"] == "finished"
    assert result["record"].actions.get("move", 0) >= 12 * 4  # every match played some checker plays
    assert result["record"].actions.get("resign", 0) >= 12  # each match ended by a resignation
    served = result["record"].served  # the agents alternate between the two web processes
    assert len(served) == 2 and min(served.values()) > 50, served


def test_the_check_finds_a_repeat_pairing_and_a_missing_round():
    def match(round_, a, b, pk):
        return {"round": round_, "matchId": pk, "status": "finished", "winner": a, "replaced": False,
                "white": {"id": a}, "black": {"id": b}}

    detail = {"status": "finished", "winner": {"id": 1},
              "entrantList": [{"id": p, "status": "entered"} for p in (1, 2, 3, 4)],
              "standings": [{"player": p, "byes": 0} for p in (1, 2, 3, 4)],
              "matches": [match(1, 1, 2, 1), match(1, 3, 4, 2), match(2, 1, 2, 3), match(2, 3, 4, 4)]}
    assert bench.check_standings(detail, 2, 4) == ["[1, 2] met twice (rounds 1 and 2)",
                                                   "[3, 4] met twice (rounds 1 and 2)"]
    problems = bench.check_standings(detail, 3, 4)
    assert "rounds played: [1, 2], not 1 to 3" in problems
    assert "player 1: 2 matches and 0 byes in 3 rounds" in problems

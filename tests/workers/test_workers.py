"""The workers as real processes: Daphne for the sockets, ``manage.py run_huey`` for the
house bots, clocks and periodic work, on a SQLite file (the embedded default) and on
PostgreSQL + Redis. Nothing sleeps a fixed time: every wait polls with a deadline."""

import asyncio
import os
import signal
import sys
import threading
import time

import pytest

from tests.live import GameClient, Site, play_until_over
from tests.support import require_postgres, require_redis

pytestmark = [pytest.mark.slow]

VS_BOT = """
import json
from games import services
human = services.player_register(username="hugo", password=None)
match = services.match_vs_bot(player=human, level="beginner", length=1)
print("RESULT " + json.dumps({"match": match.pk, "game": match.games.get().pk}))
"""

MATCH_STATE = """
import json
from games.models import GameEvent, Match
match = Match.objects.get(pk=%d)
print("RESULT " + json.dumps({"status": match.status, "winner": match.winner_id, "reason": match.end_reason,
    "bot_moves": GameEvent.objects.filter(game__match=match, type="move", actor_id=match.black_id).count()}))
"""


def run_async(coro, timeout):
    """Run ``coro`` in a thread of its own (a session-wide Playwright may own this thread's loop)."""
    outcome = {}

    def run():
        try:
            outcome["value"] = asyncio.run(asyncio.wait_for(coro, timeout=timeout))
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout + 30)
    assert not thread.is_alive(), "the scenario did not finish"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def poll(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)  # a bounded poll, not a timing assumption
    raise AssertionError(f"{what} did not happen within {timeout} s")


async def human_plays(site: Site, ids: dict, cookie: str, *, on_bot_turn=None) -> int:
    client = GameClient(site.url(0, "ws"), ids["game"], cookie, site.url(0), color="white")
    await client.connect()
    stop = asyncio.Event()
    runner = asyncio.create_task(client.run(stop))
    try:
        if on_bot_turn is not None:
            await on_bot_turn(client)
        return await play_until_over(client, stop, timeout=240)
    finally:
        stop.set()
        if client.ws is not None:
            await client.ws.close()
        await asyncio.wait_for(runner, 10)


def check_finished(site, ids):
    state = site.shell(MATCH_STATE % ids["match"])
    assert state["status"] == "finished" and state["winner"] is not None, state
    assert state["bot_moves"] >= 3, state
    assert not site.tracebacks(), site.logs()
    return state


def test_a_human_on_a_websocket_plays_a_whole_match_against_a_house_bot_run_by_a_worker(tmp_path):
    """The embedded default: SQLite, the Unix-datagram bus between the web process and the
    worker, the SQLite task queue. The web process decides nothing: the worker plays the bot."""
    with Site(tmp_path, webs=1, workers=1) as site:
        ids = site.shell(VS_BOT)
        cookie = site.sessions(["hugo"])["hugo"]
        actions = run_async(human_plays(site, ids, cookie), timeout=300)
        assert actions >= 3
        check_finished(site, ids)
        log = site.workers[0].log.read_text()
        assert "bot turn: game" in log  # the worker played it, and says so
        assert "bot turn" not in site.webs[0].log.read_text()


@pytest.mark.redis
def test_the_same_on_postgres_and_redis(tmp_path):
    require_postgres()
    with Site(tmp_path, webs=1, workers=1, postgres=True, redis_url=require_redis()) as site:
        ids = site.shell(VS_BOT)
        cookie = site.sessions(["hugo"])["hugo"]
        run_async(human_plays(site, ids, cookie), timeout=300)
        check_finished(site, ids)


def test_a_worker_killed_in_the_middle_of_a_bots_turn_loses_nothing(tmp_path):
    """The bot's strategy is held while a flag file exists; the worker is killed (SIGKILL)
    while it holds it; a new worker finds the turn left waiting and the match finishes."""
    flag = tmp_path / "hold-the-bot"
    env = {"GAMES_BOT_STRATEGY": "tests.workers.slow_bot.decide_slowly", "SLOW_BOT_FLAG": str(flag),
           "GAMES_BOT_TIME_LIMIT": "120", "GAMES_PERIODIC_SCALE": "0.2"}
    with Site(tmp_path, webs=1, workers=1, env=env) as site:
        ids = site.shell(VS_BOT)
        cookie = site.sessions(["hugo"])["hugo"]
        flag.touch()
        killed = {}

        async def kill_during_the_bots_turn(client):
            # Play until the worker holds a bot turn, then kill it and start another.
            stop = asyncio.Event()
            task = asyncio.create_task(play_until_over(client, stop, timeout=120))
            loop = asyncio.get_running_loop()
            while not os.path.exists(f"{flag}.started"):
                assert loop.time() < killed.setdefault("deadline", loop.time() + 60), "the bot never started"
                await asyncio.sleep(0.05)  # polling for the file, bounded above
            killed["version"] = client.version
            site.workers[0].kill(signal.SIGKILL)
            flag.unlink()
            stop.set()
            await task
            site.add_worker()

        run_async(human_plays(site, ids, cookie, on_bot_turn=kill_during_the_bots_turn), timeout=300)
        state = check_finished(site, ids)
        assert killed["version"] is not None and state["bot_moves"] >= 3
        assert "bot turn: game" in site.workers[1].log.read_text()  # the new worker played the lost turn


CLOCKED = """
import json
from games import services
from games.models import Game
a = services.player_register(username="anna", password=None)
b = services.player_register(username="ben", password=None)
match = services.match_create(creator=a, length=1, clock_delay=1, clock_bank=1)
services.match_join(player=b, match_id=match.pk)
game = Game.objects.get(match=match)
print("RESULT " + json.dumps({"match": match.pk, "deadline": game.clock_deadline.isoformat()}))
"""

ENDED = """
import json
from games.models import Match
m = Match.objects.get(pk=%d)
print("RESULT " + json.dumps({"status": m.status, "reason": m.end_reason}))
"""


def test_a_clock_runs_out_with_no_socket_anywhere_and_the_worker_ends_the_match(tmp_path):
    with Site(tmp_path, webs=1, workers=1) as site:
        ids = site.shell(CLOCKED)  # 1 s delay + 1 s bank: the first mover's time is up in 2 s
        ended = poll(lambda: (s := site.shell(ENDED % ids["match"]))["status"] == "finished" and s, 60,
                     "the time-out")
        assert ended["reason"] == "timeout"
        # The deadline task, or the periodic clock sweep when its tick comes first (a race
        # both sides of which are the worker's: the loser finds the match over).
        log = site.workers[0].log.read_text()
        assert "clock ran out" in log or "periodic clocks: 1" in log, log
        assert not site.tracebacks(), site.logs()


RUNS = """
import json
from games.models import PeriodicRun
rows = list(PeriodicRun.objects.values_list("name", "period", "worker"))
print("RESULT " + json.dumps(rows))
"""


def test_two_workers_run_each_periodic_job_once_per_period(tmp_path):
    with Site(tmp_path, webs=0, workers=2, env={"GAMES_PERIODIC_SCALE": "0.2"}) as site:
        def enough():
            rows = site.shell(RUNS)
            ticks = {p for n, p, w in rows if n == "tick"}
            return rows if len(ticks) >= 8 and len({p for n, p, w in rows if n == "bots"}) >= 6 else None

        rows = poll(enough, 90, "eight rounds of periodic work")
        assert all(worker.alive() for worker in site.workers)
        for name in {n for n, p, w in rows}:
            periods = sorted(p for n, p, w in rows if n == name)
            assert len(periods) == len(set(periods)), f"{name} ran twice in a period: {periods}"
        ticks = sorted(p for n, p, w in rows if n == "tick")
        assert ticks == list(range(ticks[0], ticks[-1] + 1)), f"a round was skipped: {ticks}"
        assert not site.tracebacks(), site.logs()


LONG_JOBS = """
import json
from games import services
from games.models import Analysis
from games.services import jobs
human = services.player_register(username="hugo", password=None)
match = services.match_vs_bot(player=human, level="beginner", length=1)
game = [{"type": "game_start", "payload": {}, "version": 1}, {"type": "move", "payload": {}, "version": 2}]
analyses = []
for n in range(%d):
    a = Analysis.objects.create(source=Analysis.UPLOAD, depth=3, white_name="a", black_name="b", length=1,
                                upload={"games": [game]})
    a.job = jobs.job_start(kind="analysis", key=f"held:{n}", params={"analysis": a.pk}, by=human)
    a.save(update_fields=["job"])
    analyses.append(a.pk)
print("RESULT " + json.dumps({"match": match.pk, "game": match.games.get().pk, "analyses": analyses}))
"""

JOBS_STATE = """
import json
from games.models import Job
print("RESULT " + json.dumps(dict(Job.objects.values_list("key", "status"))))
"""

TICKS = """
import json
from games.models import PeriodicRun
print("RESULT " + json.dumps(sorted(PeriodicRun.objects.filter(name="tick").values_list("period", flat=True))))
"""


@pytest.mark.parametrize("backend", ["embedded", pytest.param("postgres_redis", marks=pytest.mark.redis)])
def test_long_jobs_on_every_long_thread_never_hold_up_a_bots_reply_nor_the_tick(tmp_path, backend):
    """Three analyses are queued for two long threads, and held there: every long thread is
    inside a long job (and one more waits). Meanwhile a human plays a whole match against a
    house bot played by the quick worker, and the periodic tick keeps its rhythm. In one
    worker with one set of threads (as before the two queues) the bot would never answer.
    On the embedded default (SQLite queues) and on PostgreSQL + Redis (PriorityRedisHuey)."""
    flag = tmp_path / "hold-analyses"
    flag.touch()
    env = {"HELD_ANALYSIS_FLAG": str(flag), "GAMES_LONG_WORKER_THREADS": "2", "GAMES_PERIODIC_SCALE": "0.2"}
    shared = {}
    if backend == "postgres_redis":
        require_postgres()
        shared = {"postgres": True, "redis_url": require_redis()}
    with Site(tmp_path, webs=1, workers=1, worker_threads=2, env=env, **shared,
              long_worker_args=[sys.executable, "-m", "tests.workers.held_long_worker"]) as site:
        ids = site.shell(LONG_JOBS % 3)
        poll(lambda: len(list(tmp_path.glob("hold-analyses.held-*"))) >= 2, 60, "both long threads busy")
        assert sorted(site.shell(JOBS_STATE).values()) == ["queued", "running", "running"]
        first_tick = max(site.shell(TICKS) or [0])
        cookie = site.sessions(["hugo"])["hugo"]
        actions = run_async(human_plays(site, ids, cookie), timeout=300)
        assert actions >= 3
        check_finished(site, ids)
        assert "bot turn: game" in site.workers[0].log.read_text()
        # The long jobs were held the whole time, and the tick ran every round meanwhile.
        assert sorted(site.shell(JOBS_STATE).values()) == ["queued", "running", "running"]
        ticks = [p for p in site.shell(TICKS) if p >= first_tick]
        assert len(ticks) >= 2 and ticks == list(range(ticks[0], ticks[-1] + 1)), f"a round was skipped: {ticks}"
        flag.unlink()
        poll(lambda: set(site.shell(JOBS_STATE).values()) == {"done"}, 90, "the held analyses ending")
        assert "run_job" not in site.workers[0].log.read_text()  # the quick worker took no long job
        assert not site.tracebacks(), site.logs()

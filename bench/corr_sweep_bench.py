"""The cost of one correspondence deadline sweep with 100,000 open correspondence matches.

    .venv/bin/python bench/corr_sweep_bench.py                 # 100,000 matches, 20 of them due
    .venv/bin/python bench/corr_sweep_bench.py --matches 20000 --due 50

Makes its own database on ``TEST_DATABASE_URL``'s PostgreSQL server (dropped at the end),
fills it with ``--matches`` correspondence matches being played, each with its game on the
clock (deadlines spread over the next ten days), of which ``--due`` ran out longer than
``GAMES_CORR_GRACE`` ago, then prints: the plan of the sweep's query (it must be a range of
the index on ``games_game.clock_deadline``, not a scan of every match), the time of the
query alone, and the time of whole sweeps (``services.expire_clocks``: the query, then each
due match awarded under its lock); the second sweep finds nothing left to award.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5, help="timed runs of the query alone")
    args = parser.parse_args(argv)

    from tests.live import PG_ADMIN, _pg

    database = f"corr_sweep_{secrets.token_hex(4)}"
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
        os.environ.pop(name, None)
    _pg(f'CREATE DATABASE "{database}"')
    os.environ["DATABASE_URL"] = PG_ADMIN.rsplit("/", 1)[0] + "/" + database
    os.environ.update({"DJANGO_SETTINGS_MODULE": "backgammon_site.settings", "DJANGO_DEBUG": "0",
                       "DJANGO_SECRET_KEY": secrets.token_hex(32), "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                       "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_LOG_LEVEL": "WARNING",
                       "GAMES_ANALYSIS_AUTO": "0"})
    try:
        return measure(args)
    finally:
        from django.db import connections

        connections.close_all()
        _pg(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def fill(args, now) -> None:
    from datetime import timedelta

    from games import services
    from games.clock import claim_grace
    from games.dice import commitment
    from games.engine import GameState
    from games.models import Game, Match

    players = [services.player_register(username=f"corr{i}", password=None) for i in range(200)]
    state = GameState.new().to_dict()
    seed = "0" * 64
    grace = claim_grace()
    batch = 5000
    for start in range(0, args.matches, batch):
        count = min(batch, args.matches - start)
        matches = Match.objects.bulk_create([
            Match(white=players[i % 200], black=players[(i + 1) % 200], length=5, status=Match.PLAYING, rated=False,
                  corr_days=3, corr_bank_days=7, white_bank_ms=7 * 86_400_000, black_bank_ms=7 * 86_400_000,
                  started_at=now, invite_code=f"c{i}")
            for i in range(start, start + count)])
        games = []
        for k, match in enumerate(matches):
            i = start + k
            if i < args.due:
                deadline = now - grace - timedelta(minutes=1 + i)
            else:
                deadline = now + timedelta(seconds=(i * 8.64) % (10 * 86_400))
            games.append(Game(match=match, number=1, state=state, dice_seed=seed, dice_commitment=commitment(seed),
                              clock_color="white", clock_started_at=deadline - timedelta(days=10),
                              clock_deadline=deadline))
        Game.objects.bulk_create(games)


def measure(args) -> int:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from games import clock, events, services, tasks
    from games.realtime import bridge as realtime
    from games.services.sweeps import due_clocks

    call_command("migrate", verbosity=0)
    events.remove_listener(realtime.broadcast)  # no sockets, no workers: the sweep's own cost
    events.remove_listener(tasks.on_batch)
    now = clock.now()
    began = time.perf_counter()
    fill(args, now)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"{args.matches} correspondence matches being played, {args.due} past their deadline and grace "
          f"(filled in {time.perf_counter() - began:.1f} s)")

    from games.models import Game

    plan = []
    playing = Game.objects.filter(status=Game.PLAYING)
    for query in (playing.filter(clock_deadline__lte=now - clock.claim_grace()),
                  playing.filter(clock_deadline__gt=now - clock.claim_grace(), clock_deadline__lte=now)):
        sql, params = query.values_list("pk", "match_id").query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + sql, params)
            plan.append([row[0] for row in cursor.fetchall()])
    print("plans of the sweep's two reads (past the grace; within it, then their matches by primary key):")
    for lines in plan:
        for line in lines:
            print("   ", line)
    uses_index = all(any("clock_deadline" in line and "Index" in line for line in lines) for lines in plan)
    print(f"both read a range of the index on clock_deadline: {'yes' if uses_index else 'NO'}")

    times = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        found = len(due_clocks(now))
        times.append(time.perf_counter() - start)
    print(f"the query alone: {found} due, median {statistics.median(times) * 1000:.2f} ms "
          f"(best {min(times) * 1000:.2f} ms) over {args.rounds} runs")

    for label in ("first sweep", "second sweep"):
        start = time.perf_counter()
        awarded = services.expire_clocks(now=now)
        spent = time.perf_counter() - start
        print(f"{label}: {awarded} matches awarded in {spent * 1000:.1f} ms"
              + (f" ({spent * 1000 / awarded:.1f} ms each)" if awarded else ""))
    return 0 if uses_index else 1


if __name__ == "__main__":
    sys.exit(main())

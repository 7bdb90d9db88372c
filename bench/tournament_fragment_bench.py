"""What the tournament page's live update costs: the whole page, its tournament fragment, and
the fragment asked with the version already held (answered 204, nothing sent).

    .venv/bin/python bench/tournament_fragment_bench.py                 # a Swiss of 128 house bots
    .venv/bin/python bench/tournament_fragment_bench.py --entrants 512 --requests 100

In process, on a SQLite file of its own (removed at the end): the tournament is created and
drawn through the services, then a signed-in player's client fetches each of the three
``--requests`` times; prints the median and p95 in ms and the bytes of each answer.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=128)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for name in ("DATABASE_URL", "REDIS_URL"):
            os.environ.pop(name, None)
        os.environ.update({"DJANGO_SETTINGS_MODULE": "backgammon_site.settings", "DJANGO_DEBUG": "1",  # static files without collectstatic
                           "SQLITE_PATH": str(Path(folder) / "db.sqlite3"), "DJANGO_SECRET_KEY": secrets.token_hex(32),
                           "DJANGO_ALLOWED_HOSTS": "testserver", "DJANGO_SECURE_SSL_REDIRECT": "0",
                           "DJANGO_LOG_LEVEL": "WARNING", "GAMES_ANALYSIS_AUTO": "0", "GAMES_TASKS_IMMEDIATE": "0"})
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return measure(args)


def timed(client, path, params, n):
    times, size, status = [], 0, None
    for _ in range(n):
        began = time.perf_counter()
        response = client.get(path, params)
        times.append((time.perf_counter() - began) * 1000)
        size, status = len(response.content), response.status_code
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], size, status


def measure(args) -> int:
    from django.test import Client

    from games import services
    from games.models import Tournament

    player = services.player_register(username="reader", password="a long enough pass 123")
    t = services.tournament_create(by=player, name="Bench Swiss", format="swiss", length=1)
    services.tournament_add_bots(tournament_id=t.pk, level="random", count=args.entrants - 1, by=player)
    services.tournament_enter(tournament_id=t.pk, player=player)
    services.tournament_start(tournament_id=t.pk, by=player)
    version = Tournament.objects.get(pk=t.pk).version
    client = Client()
    client.force_login(player.user)
    path = f"/tournaments/{t.pk}/"
    print(f"a Swiss of {args.entrants} entrants, round 1 drawn; {args.requests} requests each")
    for label, params in (("whole page", {}), ("fragment", {"fragment": "1", "v": version - 1}),
                          ("fragment, unchanged", {"fragment": "1", "v": version})):
        median, p95, size, status = timed(client, path, params, args.requests)
        print(f"{label:20} {status}  median {median:7.2f} ms  p95 {p95:7.2f} ms  {size:8d} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""CPU per move of the service path alone, in one process: to compare two versions of the code.

    .venv/bin/python bench/move_cost.py                  # PostgreSQL (a throwaway database)
    .venv/bin/python bench/move_cost.py --db sqlite      # a throwaway SQLite file
    .venv/bin/python bench/move_cost.py --profile        # cProfile of the same moves

Plays ``--moves`` moves over ``--games`` money sessions through ``services.game_act``, as a
socket's move does (the lock, the engine, the server's roll, the commit and the frames each
viewer is sent, ``games.realtime.bridge.messages``), and prints the CPU time per move
(``time.process_time``: this process only) for ``--rounds`` rounds. No sockets, no channel
layer: ``bench/ws_bench.py`` measures the whole web process; this isolates the part of a
move's cost that the code of the services decides, with less noise from one run to the next,
so run it for two commits back to back (``git worktree``) to see what a change saves. The
choice of each move (the client's work) is made outside the timed part.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=2000, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="one round under cProfile, its top functions")
    parser.add_argument("--sort", default="tottime", help="the profile's order (pstats: tottime, cumulative)")
    args = parser.parse_args(argv)

    from tests.live import _pg, PG_ADMIN

    tmp = tempfile.TemporaryDirectory(prefix="move_cost_")
    database = f"move_cost_{secrets.token_hex(4)}"
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
        os.environ.pop(name, None)
    if args.db == "postgres":
        _pg(f'CREATE DATABASE "{database}"')
        os.environ["DATABASE_URL"] = PG_ADMIN.rsplit("/", 1)[0] + "/" + database
    else:
        os.environ["SQLITE_PATH"] = str(Path(tmp.name) / "db.sqlite3")
    os.environ.update({"DJANGO_SETTINGS_MODULE": "backgammon_site.settings", "DJANGO_DEBUG": "0",
                       "DJANGO_SECRET_KEY": secrets.token_hex(32), "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                       "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_LOG_LEVEL": "WARNING",
                       "GAMES_ANALYSIS_AUTO": "0"})
    try:
        return measure(args)
    finally:
        from django.db import connections

        connections.close_all()
        if args.db == "postgres":
            _pg(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        tmp.cleanup()


def measure(args) -> int:
    import django

    django.setup()
    from django.core.management import call_command

    from games import events, services, tasks
    from games.realtime import bridge as realtime
    from games.dice import ScriptedDice
    from games.engine import MOVE
    from games.models import Game

    call_command("migrate", verbosity=0)
    # The frames are built as in the web process; nothing is sent, no task is queued.
    events.remove_listener(realtime.broadcast)
    events.remove_listener(tasks.on_batch)
    events.add_listener(realtime.messages)
    made = iter(range(10**9))

    def new_game() -> tuple:
        i = next(made)
        white = services.player_register(username=f"mw{i}", password=None)
        black = services.player_register(username=f"mb{i}", password=None)
        match = services.match_create(creator=white, length=0, cube=False)
        with services.use_dice(ScriptedDice([(3,), (1,)] if i % 2 == 0 else [(1,), (3,)])):
            services.match_join(player=black, match_id=match.pk)
        return Game.objects.get(match=match).pk, {"white": white.pk, "black": black.pk}

    games = [new_game() for _ in range(args.games)]
    rng = random.Random(1)

    def play(moves: int, profile=None) -> tuple:
        spent, done = 0.0, 0
        while done < moves:
            for k, (game_id, seats) in enumerate(games):
                game = Game.objects.get(pk=game_id)
                state = game.game_state()
                if state.phase != MOVE:  # over: the session's next game starts later; take a new one
                    games[k] = new_game()
                    continue
                plays = state.legal_plays()
                steps = rng.choice(plays).to_list() if plays else []
                start = time.process_time()
                if profile is not None:
                    profile.enable()
                services.game_act(game_id=game_id, player=seats[state.actor], action="move",
                                  expected_version=game.version, moves=steps)
                if profile is not None:
                    profile.disable()
                spent += time.process_time() - start
                done += 1
        return spent, done

    from bench.reference import describe

    print(describe(), flush=True)
    play(min(300, args.moves))  # warm up: connections, compiled queries, caches
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile(time.process_time)  # CPU, as measured: waiting for PostgreSQL is left out
        play(args.moves, profile)  # only the timed part: the moves' choice is left out
        pstats.Stats(profile).sort_stats(args.sort).print_stats(40)
        return 0
    for _ in range(args.rounds):
        spent, done = play(args.moves)
        print(f"{args.db}: {1000 * spent / done:.3f} ms CPU per move (the service path and its frames), {done} moves",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

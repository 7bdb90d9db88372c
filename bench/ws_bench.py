"""Capacity benchmark: live games over real websockets against real Daphne processes.

    .venv/bin/python bench/ws_bench.py                              # embedded default, 2000 sockets
    .venv/bin/python bench/ws_bench.py --db postgres --redis        # PostgreSQL + a Redis of its own
    .venv/bin/python bench/ws_bench.py --servers 2                  # + the capacity of 2 processes
    .venv/bin/python bench/ws_bench.py --games 10 --rates 5,10 --step-duration 2 --no-fanout   # quick
    .venv/bin/python bench/ws_bench.py --fixture ../bench-games      # the games made once, copied after

What it does (``tests.live.Site``: the site as real processes, on a fresh database):

1. Starts ``--servers`` Daphne processes on chosen ports (``--port``, upward from 18700) on a
   fresh database (a SQLite file, or ``--db postgres``: a throwaway PostgreSQL database) with
   the embedded bus, or with ``--redis``: ``BENCH_REDIS_URL`` if set (never flushed: give it
   a database of its own), else a ``redis-server`` of its own on a chosen port.
2. Creates ``--games`` money sessions without a cube (each turn is exactly one ``move``
   message: the server rolls), with ``--spectators`` spectators each (2 players + 2
   spectators = 4 sockets per game: 500 games, 2000 sockets).
3. **Fan-out cost**: with 100 sockets connected to one process, then with all of them, plays
   ``--fanout-rate`` moves/s on the same 25 games and prints the process's CPU per move
   (its CPU while moving less its idle CPU over as long, from ``/proc/<pid>/stat``).
4. **One process**: every socket on process 1; steps the move rate through ``--rates`` and
   prints, per step, p50/p99 move-to-every-socket latency, errors, losses and the web
   process's CPU per move, then the highest rate that held (p99 < 100 ms, no errors, no
   loss, at least 90% of the rate sustained). It stops at the first step that fails.
5. **N processes** (``--servers`` > 1): the sockets reconnect, split over every process
   (a game's sockets land on different processes, as behind a proxy); the same search; the
   capacity ratio to one process.

The clients behave like the browser's (``static/js/lib/socket.mjs``) when idle: no websocket
protocol pings (browsers send none; they answer the server's), the app's ping, with the version
held, when the server's own ping is late (``PING_EVERY`` s of silence) or shows the socket
behind. The idle CPU the fan-out phase prints is then what idle browsers cost a process.
``--pings old-browser``: the browser before issue 32 (the app's ping after every 3 s of
silence); ``--pings protocol``: the benchmark's clients before (the ``websockets`` library's
protocol ping every 20 s, no app ping).

Before and after the run it prints ``bench/reference.py``'s check of the machine itself: on a
machine that runs Python at changing speeds the CPU per move changes with it, and only runs
made back to back compare.

A move's latency runs from sending it to the moment the last of that game's sockets has
the ``move`` event. Exit status 0 even when a target is missed (it is a measurement).
The client runs in this one process: its own CPU share is printed, so a saturated client
is seen, not mistaken for a slow server, and it collects no garbage during a step (its own
pauses would be counted as the server's latency).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reference import describe as machine_reference  # noqa: E402
from bench.ws_clients import LATENCY_LIMIT, PINGS, Clients, pct  # noqa: E402
from tests.live import RedisServer, Site, choose_ports  # noqa: E402

FANOUT_GAMES = 25  # x 4 sockets = the 100-socket side of the fan-out comparison
TARGETS = {"sqlite": (5.0, 100), "postgres": (3.5, 150)}  # CPU ms per move, moves/s with 2000 sockets

SETUP = r"""
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from games import services
from games.dice import ScriptedDice
from games.models import Game

N, SPECTATORS = %d, %d

def session_for(player):
    s = SessionStore()
    s[SESSION_KEY] = str(player.user.pk)
    s[BACKEND_SESSION_KEY] = "games.auth.ActivePlayerBackend"
    s[HASH_SESSION_KEY] = player.user.get_session_auth_hash()
    s.create()
    return s.session_key

out = []
for i in range(N):
    with transaction.atomic():
        white = services.player_register(username=f"bw{i}", password=None)
        black = services.player_register(username=f"bb{i}", password=None)
        watchers = [services.player_register(username=f"bs{i}_{k}", password=None) for k in range(SPECTATORS)]
    match = services.match_create(creator=white, length=0, cube=False)
    with services.use_dice(ScriptedDice([(3,), (1,)] if i %% 2 == 0 else [(1,), (3,)])):
        services.match_join(player=black, match_id=match.pk)
    game = Game.objects.get(match=match)
    out.append({"game": game.pk, "sessions": {"white": session_for(white), "black": session_for(black),
                **{f"spectator{k}": session_for(w) for k, w in enumerate(watchers)}}})
print("RESULT " + json.dumps(out))
"""


async def fanout(clients: Clients, ports, pid, rate, duration) -> tuple:
    """CPU ms per move of one process with 100 sockets, then with every socket connected.
    A third of a step's moves go first, unmeasured: the process's first moves pay for what
    it does once (connections, compiled queries, caches), which is not fan-out."""
    few = clients.games[:FANOUT_GAMES]
    out = []
    for games in (few, clients.games[FANOUT_GAMES:]):
        await clients.connect(games, ports[:1])
        if games is few:
            await clients.run_step(few, rate, duration / 3)
        sockets = sum(len(g.sockets) for g in clients.games)
        idle = await clients.idle_cpu(pid, duration)
        step = await clients.run_step(few, rate, duration)
        net = 1000 * max(0.0, step.cpu[0] - idle * step.elapsed / duration) / max(1, len(step.latency))
        print(f"  {sockets:5d} sockets: {len(step.latency)} moves at {rate:g}/s, CPU/move {step.cpu_ms_per_move():.2f} ms, "
              f"less idle ({1000 * idle / duration:.1f} ms/s) {net:.2f} ms; errors {step.errors or 0}, lost {step.lost}")
        out.append((sockets, net, step))
    return out


async def search(clients: Clients, rates, duration) -> tuple:
    """Step the rate up; returns (highest rate that held or 0, the steps run)."""
    best, steps = None, []
    for rate in rates:
        step = await clients.run_step(clients.games, rate, duration)
        steps.append(step)
        print(step.line(), flush=True)
        if not step.holds():
            break
        best = step
    return best, steps


async def bench(args, site) -> dict:
    specs = site.setup_specs
    pids = [proc.popen.pid for proc in site.webs]
    ports = [proc.port for proc in site.webs]
    clients = Clients(specs, args.spectators, ports, pids, pings=args.pings)
    result = {"steps": [], "fanout": None}
    if args.fanout and len(clients.games) > FANOUT_GAMES:
        print(f"\nfan-out cost on one process ({args.fanout_rate:g} moves/s on {FANOUT_GAMES} games):")
        result["fanout"] = await fanout(clients, ports, pids[0], args.fanout_rate, args.fanout_duration)
        (_, small, _), (_, large, _) = result["fanout"]
        print(f"  ratio {large / small if small else float('nan'):.2f} (target: within 20%)")
    else:
        await clients.connect(clients.games, ports[:1])
    sockets = sum(len(g.sockets) for g in clients.games)
    print(f"\none process, {len(clients.games)} games, {sockets} sockets:", flush=True)
    one, steps = await search(clients, args.rates, args.step_duration)
    result["steps"] += steps
    result["one"] = one
    if len(ports) > 1:
        await clients.close()
        await clients.connect(clients.games, ports)
        print(f"\n{len(ports)} processes, sockets split between them:", flush=True)
        many, steps = await search(clients, args.rates, args.step_duration)
        result["steps"] += steps
        result["many"] = many
    await clients.close()
    if clients.browser_pings:
        print(f"\n{args.pings} clients: {clients.pings} app pings sent (after {clients.ping_every:g} s of silence), "
              f"{clients.pongs} pongs received, {clients.server_pings} of them the server's own pings")
    result["stray_errors"] = clients.stray_errors
    result["pings"], result["pongs"], result["server_pings"] = clients.pings, clients.pongs, clients.server_pings
    return result


def report(args, result) -> None:
    cpu_target, rate_target = TARGETS[args.db]
    one = result.get("one")
    layer = "Redis" if args.redis else "embedded"
    print(f"\nsummary ({args.db} + {layer} bus, {len(args.rates)} rates tried, {args.step_duration:g} s a step):")
    if one is None:
        print("  one process: no rate held")
    else:
        print(f"  one process: {one.rate:g} moves/s held (p99 {pct(one.latency, 99) * 1000:.1f} ms), "
              f"CPU/move {one.cpu_ms_per_move():.2f} ms; targets >= {rate_target} moves/s: "
              f"{'yes' if one.rate >= rate_target else 'NO'}, <= {cpu_target} ms: "
              f"{'yes' if one.cpu_ms_per_move() <= cpu_target else 'NO'}")
    if "many" in result:
        many = result["many"]
        ratio = (many.rate if many else 0) / one.rate if one else float("nan")
        print(f"  {args.servers} processes: {many.rate if many else 0:g} moves/s held; capacity ratio to one "
              f"process {ratio:.2f}")
    if result["fanout"]:
        (n1, small, s1), (n2, large, s2) = result["fanout"]
        ok = small and abs(large - small) <= 0.2 * small
        clean = not (s1.errors or s2.errors or s1.lost or s2.lost)  # a socket dropped: not a fan-out that works
        print(f"  fan-out CPU/move {small:.2f} ms at {n1} sockets, {large:.2f} ms at {n2}: "
              f"{'within' if ok else 'NOT within'} 20%"
              + ("" if clean else f"; NOT clean: errors {s1.errors or 0} / {s2.errors or 0}, lost {s1.lost} / {s2.lost}"))
    if result["stray_errors"]:
        print(f"  errors outside the steps: {result['stray_errors']}")


def prepare(site: Site, args) -> None:
    """The database with its games and sessions: made (``SETUP``), or with ``--fixture DIR``
    copied from the one an earlier run with the same ``--fixture`` kept (its specs in
    ``DIR/specs.json``, the database a PostgreSQL template or ``DIR/db.sqlite3``), so that
    runs compared back to back (two versions of the code) start from the same games and do
    not spend minutes each making them."""
    import json

    fixture = Path(args.fixture) if args.fixture else None
    specs = fixture / f"specs-{args.db}-{args.games}-{args.spectators}.json" if fixture else None
    template = f"ws_bench_{args.games}_{args.spectators}"
    if specs is not None and specs.exists():
        site.prepare(pg_template=template if args.db == "postgres" else None,
                     sqlite_from=None if args.db == "postgres" else specs.with_suffix(".sqlite3"))
        site.setup_specs = json.loads(specs.read_text())
        return
    site.prepare()
    site.setup_specs = site.shell(SETUP % (args.games, args.spectators), timeout=1800)
    if specs is not None:
        fixture.mkdir(parents=True, exist_ok=True)
        site.save_database(pg_template=template, sqlite_to=specs.with_suffix(".sqlite3"))
        specs.write_text(json.dumps(site.setup_specs))


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--spectators", type=int, default=2, help="per game (plus its 2 players)")
    parser.add_argument("--servers", type=int, default=1, help="Daphne processes")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--redis", action="store_true",
                        help="the Redis bus: BENCH_REDIS_URL if set (never flushed), else a redis-server of our own")
    parser.add_argument("--port", type=int, default=18700, help="the first port to try (servers, then Redis)")
    parser.add_argument("--rates", default="25,50,75,100,125,150,175,200,250,300",
                        type=lambda s: [float(x) for x in s.split(",")], help="moves/s to step through")
    parser.add_argument("--step-duration", type=float, default=8.0)
    parser.add_argument("--no-fanout", dest="fanout", action="store_false")
    parser.add_argument("--fanout-rate", type=float, default=50.0)
    parser.add_argument("--fanout-duration", type=float, default=15.0,
                        help="s of idle, then s of moves, at each socket count (15: a whole presence heartbeat)")
    parser.add_argument("--pings", choices=PINGS, default="browser",
                        help="what idle clients do: browser (static/js/lib/socket.mjs: the default), old-browser "
                             "(app ping every 3 s of silence), protocol (websockets' protocol pings, no app ping)")
    parser.add_argument("--browser-pings", dest="pings", action="store_const", const="browser",
                        help="the same as --pings browser (the default)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (server logs)")
    parser.add_argument("--fixture", metavar="DIR",
                        help="keep the games made in DIR (and a PostgreSQL template database) and start later runs "
                             "with the same --fixture from a copy of them")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="ws_bench_"))
    ports = choose_ports(args.port, args.servers + 1)
    env = {"DJANGO_DEBUG": "0", "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_LOG_LEVEL": "WARNING",
           "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or "ws-bench-" + "x" * 50,
           "GAMES_SWEEP_INTERVAL": "0"}
    redis = None
    if args.redis:
        env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL") or ""
        if not env["REDIS_URL"]:
            redis = RedisServer(ports[-1], tmp)
            redis.start()
            env["REDIS_URL"] = redis.url
    site = Site(tmp, webs=args.servers, postgres=args.db == "postgres", env=env, ports=ports[:args.servers])
    before = machine_reference()
    try:
        t = time.monotonic()
        prepare(site, args)
        site.start_processes()
        print(f"setup: {args.games} games on {args.db} in {time.monotonic() - t:.0f} s; {args.servers} Daphne on "
              f"{[w.port for w in site.webs]}; bus {env.get('REDIS_URL') or 'embedded (unix datagrams)'}", flush=True)
        result = asyncio.run(bench(args, site))
        report(args, result)
        print(f"  before the run: {before}\n  after it: {machine_reference()}")
    finally:
        site.stop()
        if redis is not None:
            redis.stop()
        broken = site.tracebacks()
        if broken:
            print(f"! tracebacks in the logs of {broken} ({tmp})")
        print(f"logs in {tmp}" if args.keep or broken else "", end="")
        if not (args.keep or broken):
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    result["tracebacks"] = broken
    return result


if __name__ == "__main__":
    main()

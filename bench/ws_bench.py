"""Realtime load benchmark: many live games over real websockets, against real Daphne.

    .venv/bin/python bench/ws_bench.py                       # 200 games, 20 moves/s, 30 s
    .venv/bin/python bench/ws_bench.py --db postgres --servers 2
    .venv/bin/python bench/ws_bench.py --games 50 --rate 10 --duration 10

What it does:

1. Starts ``--servers`` Daphne processes (default 1) with ``GAMES_BENCH_ECHO=1``, the Redis
   channel layer (``REDIS_URL``, or ``--redis``; flushed before and after: use a database of
   its own, default db 14) and a fresh database: a SQLite file in a temporary directory
   (``--db sqlite``) or PostgreSQL (``--db postgres``: ``DATABASE_URL`` if set, else a
   throwaway database ``ws_bench`` created on ``postgres://postgres@127.0.0.1:5432`` and
   dropped afterwards).
2. Creates, through ``manage.py shell`` on that database, ``--games`` money sessions without
   a cube (every turn is rolled by the server, so each turn is exactly one ``move`` message),
   each joined by a second player, plus two spectator users per game, and a Django session
   for every user (SessionStore, no HTTP logins, no password hashing).
3. Opens 2 player + ``--spectators`` spectator sockets per game (spread over the servers),
   then measures the floor: a bare Channels echo consumer on the same servers
   (``/ws/bench/echo/``), at the same message rate.
4. Drives moves at ``--rate`` moves per second in total, round-robin over the games whose
   player on roll has its legal plays (sent by the server with the roll), for ``--duration``
   seconds. A move's latency is from sending it to the moment the last of that game's
   sockets (both players and every spectator) has received the ``move`` event.

Prints median / p90 / p99 / max latency for moves (last receiver and first receiver) and for
the echo floor, moves per second sustained, and errors. Exit status 0 even when targets are
missed (it is a measurement); ``--check`` makes it 1 when p99 >= 150 ms or the median is
3x the echo floor or more.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
DAPHNE = str(Path(sys.executable).parent / "daphne")
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH_DB = "ws_bench"

SETUP = r"""
import json, sys
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from games import services
from games.dice import ScriptedDice
from games.models import Game

N, SPECTATORS = int(sys.argv[1]), int(sys.argv[2])

def session_for(player):
    user = player.user
    s = SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "games.auth.ActivePlayerBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    return s.session_key

out = []
for i in range(N):
    with transaction.atomic():
        white = services.player_register(username=f"bw{i}", password=None)
        black = services.player_register(username=f"bb{i}", password=None)
        watchers = [services.player_register(username=f"bs{i}_{k}", password=None) for k in range(SPECTATORS)]
    match = services.match_create(creator=white, length=0, cube=False)
    with services.use_dice(ScriptedDice([(3,), (1,)] if i % 2 == 0 else [(1,), (3,)])):
        services.match_join(player=black, match_id=match.pk)
    game = Game.objects.get(match=match)
    out.append({"game": game.pk, "version": game.version,
                "sessions": {"white": session_for(white), "black": session_for(black),
                             **{f"spectator{k}": session_for(w) for k, w in enumerate(watchers)}}})
print("SETUP " + json.dumps(out))
"""


# -- servers ---------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"daphne on {port} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"daphne on {port} did not start in {timeout} s")


def redis_ok(url: str) -> bool:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        try:
            client.ping()
            return True
        finally:
            client.close()
    except Exception:  # noqa: BLE001
        return False


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=10)
    try:
        client.flushdb()
    finally:
        client.close()


def postgres_database(args):
    """(DATABASE_URL, cleanup) for --db postgres."""
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"], lambda: None
    import psycopg

    def drop():
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {PG_BENCH_DB} WITH (FORCE)")

    drop()
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {PG_BENCH_DB}")
    return PG_ADMIN.rsplit("/", 1)[0] + "/" + PG_BENCH_DB, drop


# -- clients ---------------------------------------------------------------------------------------


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def describe(name, seconds):
    ms = [s * 1000 for s in seconds]
    if not ms:
        return f"{name:<34} no samples"
    return (f"{name:<34} n={len(ms):<6} median {statistics.median(ms):7.2f} ms   p90 {pct(ms, 90):7.2f}   "
            f"p99 {pct(ms, 99):7.2f}   max {max(ms):7.2f}")


class Game:
    def __init__(self, spec, roles):
        self.id = spec["game"]
        self.roles = roles
        self.sockets = {}
        self.ready = None  # (role, version, play) when the player on roll has its legal plays
        self.pending = None  # (version, t0, set of roles still to receive, first receive time)


class Bench:
    def __init__(self, args, ports, specs):
        self.args, self.ports = args, ports
        roles = ["white", "black"] + [f"spectator{k}" for k in range(args.spectators)]
        self.games = [Game(s, roles) for s in specs]
        self.specs = {s["game"]: s for s in specs}
        self.latency, self.first = [], []
        self.errors = {}
        self.stale_ticks = 0
        self.sent = 0
        self.rng = random.Random(7)
        self.closed = 0

    def error(self, what):
        self.errors[what] = self.errors.get(what, 0) + 1

    async def connect_all(self):
        from websockets.asyncio.client import connect

        sem = asyncio.Semaphore(50)
        n = 0

        async def one(game, role, index):
            port = self.ports[index % len(self.ports)]
            session = self.specs[game.id]["sessions"][role]
            async with sem:
                ws = await connect(f"ws://127.0.0.1:{port}/ws/games/{game.id}/",
                                   additional_headers={"Cookie": f"sessionid={session}",
                                                       "Origin": f"http://127.0.0.1:{port}"},
                                   open_timeout=60, max_queue=None, compression=None)
            game.sockets[role] = ws
            asyncio.get_running_loop().create_task(self.reader(game, role, ws))

        tasks = []
        for game in self.games:
            for role in game.roles:
                tasks.append(one(game, role, n))
                n += 1
        await asyncio.gather(*tasks)

    async def reader(self, game, role, ws):
        try:
            async for raw in ws:
                now = time.perf_counter()
                m = json.loads(raw)
                t = m.get("t")
                if t == "error":
                    self.error(f"error {m['d'].get('code')}")
                    continue
                if t == "snapshot":
                    d = m["d"]
                    if d.get("actor") == role and d.get("phase") == "move" and d.get("legalMoves") is not None:
                        game.ready = (role, m["v"], self.pick(d["legalMoves"]))
                    continue
                if m.get("game") != game.id and t in ("move", "roll"):
                    continue
                if t == "move":
                    p = game.pending
                    if p is not None and m["v"] == p[0] and role in p[2]:
                        p[2].discard(role)
                        if p[3] is None:
                            game.pending = p = (p[0], p[1], p[2], now)
                        if not p[2]:
                            self.latency.append(now - p[1])
                            self.first.append(p[3] - p[1])
                            game.pending = None
                if "legalMoves" in m:
                    game.ready = (role, m["v"], self.pick(m["legalMoves"]))
        except Exception as exc:  # noqa: BLE001 - counted, the run goes on
            self.error(f"socket {type(exc).__name__}")
        finally:
            self.closed += 1

    def pick(self, plays):
        return self.rng.choice(plays) if plays else []

    async def drive(self):
        interval = 1.0 / self.args.rate
        loop = asyncio.get_running_loop()
        start = loop.time()
        end = start + self.args.duration
        tick = start
        cursor = 0
        n = len(self.games)
        while loop.time() < end:
            tick += interval
            for step in range(n):  # the next game that can move (bounded by the number of games)
                game = self.games[(cursor + step) % n]
                if game.ready is not None and game.pending is None:
                    cursor = (cursor + step + 1) % n
                    role, version, play = game.ready
                    game.ready = None
                    receivers = set(game.roles)
                    game.pending = (version + 1, time.perf_counter(), receivers, None)
                    await game.sockets[role].send(json.dumps({"t": "move", "d": {"moves": play}, "v": version}))
                    self.sent += 1
                    break
            else:
                self.stale_ticks += 1
            await asyncio.sleep(max(0.0, tick - loop.time()))
        elapsed = loop.time() - start
        # Let the last moves arrive (bounded).
        for _ in range(500):
            if not any(g.pending for g in self.games):
                break
            await asyncio.sleep(0.01)
        lost = sum(1 for g in self.games if g.pending)
        if lost:
            self.errors["moves not received by everyone"] = lost
        return elapsed

    async def echo(self, sockets, rate, duration):
        from websockets.asyncio.client import connect

        conns = []
        for i in range(sockets):
            port = self.ports[i % len(self.ports)]
            conns.append(await connect(f"ws://127.0.0.1:{port}/ws/bench/echo/",
                                       additional_headers={"Origin": f"http://127.0.0.1:{port}"},
                                       open_timeout=30, compression=None))
        rtts = []
        payload = json.dumps({"t": "move", "d": {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}, "v": 10})

        async def one(ws):
            t0 = time.perf_counter()
            await ws.send(payload)
            await asyncio.wait_for(ws.recv(), timeout=10)
            rtts.append(time.perf_counter() - t0)

        loop = asyncio.get_running_loop()
        interval = 1.0 / rate
        start = loop.time()
        tick = start
        tasks = []
        i = 0
        while loop.time() < start + duration:
            tick += interval
            tasks.append(loop.create_task(one(conns[i % len(conns)])))
            i += 1
            await asyncio.sleep(max(0.0, tick - loop.time()))
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
        return rtts


# -- main ------------------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=2, help="per game")
    parser.add_argument("--rate", type=float, default=20.0, help="moves per second, all games together")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of moves")
    parser.add_argument("--echo-duration", type=float, default=10.0)
    parser.add_argument("--servers", type=int, default=1, help="Daphne processes")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS)
    parser.add_argument("--debug", action="store_true", help="run the servers with DJANGO_DEBUG=1")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (server logs)")
    parser.add_argument("--check", action="store_true", help="exit 1 when the targets are missed")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="ws_bench_"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "backgammon_site.settings",
           "DJANGO_DEBUG": "1" if args.debug else "0",
           # Production settings (DEBUG off: no query log); plain ws:// on loopback, so no SSL redirect.
           "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or "ws-bench-" + "x" * 50,
           "DJANGO_SECURE_SSL_REDIRECT": "0",
           "GAMES_SWEEP_INTERVAL": "0", "GAMES_BENCH_ECHO": "1", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}
    cleanup_db = lambda: None  # noqa: E731
    if args.db == "sqlite":
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    else:
        env["DATABASE_URL"], cleanup_db = postgres_database(args)
    use_redis = redis_ok(args.redis)
    if use_redis:
        env["REDIS_URL"] = args.redis
        flush_redis(args.redis)
    else:
        env.pop("REDIS_URL", None)
        if args.servers > 1:
            raise SystemExit("several servers need Redis (--redis URL)")
        print(f"! Redis not reachable at {args.redis}: in-memory channel layer, one server")

    procs = []
    try:
        t = time.monotonic()
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
        setup = SETUP.replace("sys.argv[1]", str(args.games)).replace("sys.argv[2]", str(args.spectators))
        out = subprocess.run([PYTHON, "manage.py", "shell", "-c", setup],
                             cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=600).stdout
        specs = json.loads(next(line for line in out.splitlines() if line.startswith("SETUP "))[6:])
        print(f"setup: {len(specs)} games on {args.db} in {time.monotonic() - t:.1f} s")

        app = "backgammon_site.asgi:application"  # serves /ws/bench/echo/ with GAMES_BENCH_ECHO=1
        ports = [free_port() for _ in range(args.servers)]
        for port in ports:
            log = open(tmp / f"daphne-{port}.log", "wb")
            procs.append(subprocess.Popen([DAPHNE, "-b", "127.0.0.1", "-p", str(port), app],
                                          cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
            log.close()
        for port, proc in zip(ports, procs):
            wait_for_port(port, proc)
        print(f"servers: {len(ports)} x daphne {app} on {ports}; channel layer: "
              f"{'redis ' + args.redis if use_redis else 'in-memory'}; database: {args.db}")

        result = asyncio.run(run(args, ports, specs))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if use_redis:
            flush_redis(args.redis)
        cleanup_db()
        logs = sorted(tmp.glob("daphne-*.log"))
        tracebacks = sum(p.read_text(errors="replace").count("Traceback") for p in logs)
        if tracebacks:
            print(f"! {tracebacks} tracebacks in the server logs ({tmp})")
        if args.keep or tracebacks:
            print(f"logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return result


async def run(args, ports, specs):
    bench = Bench(args, ports, specs)
    t = time.monotonic()
    await bench.connect_all()
    sockets = sum(len(g.sockets) for g in bench.games)
    # Every game's player on roll has its legal plays before the clock starts (bounded wait).
    for _ in range(3000):
        if all(g.ready for g in bench.games):
            break
        await asyncio.sleep(0.01)
    print(f"connected {sockets} sockets in {time.monotonic() - t:.1f} s "
          f"({sum(1 for g in bench.games if g.ready)}/{len(bench.games)} games ready)")

    echo = await bench.echo(min(len(bench.games), 200), args.rate, args.echo_duration)
    elapsed = await bench.drive()
    moves = len(bench.latency)
    print()
    print(f"games {len(bench.games)}, sockets {sockets} ({2 + args.spectators} per game), "
          f"servers {len(ports)}, database {args.db}, DEBUG {'on' if args.debug else 'off'}, target {args.rate:g} moves/s for {args.duration:g} s")
    print(describe("echo floor (round trip)", echo))
    print(describe("move -> every socket of the game", bench.latency))
    print(describe("move -> first socket", bench.first))
    print(f"moves sent {bench.sent}, received by everyone {moves}, sustained {moves / elapsed:.1f} moves/s; "
          f"ticks with no game ready {bench.stale_ticks}")
    print(f"errors: {bench.errors or 'none'}")
    med_echo = statistics.median(echo) if echo else float("nan")
    med = statistics.median(bench.latency) if bench.latency else float("nan")
    p99 = pct(bench.latency, 99)
    ok = p99 < 0.150 and med < 3 * med_echo and not bench.errors
    print(f"targets: p99 < 150 ms: {'yes' if p99 < 0.150 else 'NO'} ({p99 * 1000:.1f} ms); "
          f"median < 3x echo: {'yes' if med < 3 * med_echo else 'NO'} ({med / med_echo:.2f}x)")
    await asyncio.gather(*(ws.close() for g in bench.games for ws in g.sockets.values()), return_exceptions=True)
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())

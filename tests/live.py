"""The site as real processes, for tests and benchmarks: web processes (Daphne), workers
(Huey: quick workers, ``run_huey``, and long workers, ``run_long_worker``), a database (a SQLite file, or a fresh PostgreSQL database) and optionally Redis.

    with Site(tmp_path, webs=1, workers=1) as site:
        ids = site.shell(SETUP)           # run code in the site's environment, get its JSON
        cookie = site.session("alice")    # a logged-in session, made in the database
        site.kill_worker(0); site.start_worker(0)

And :class:`GameClient`, a websocket player that behaves like ``static/js``: it keeps the
version it holds, follows the match from game to game, asks for a resync on a gap, and pings
with its version when idle.

Nothing waits a fixed time: ports are polled, every receive has a deadline.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.support import free_port

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
DAPHNE_FLAGS = ["--websocket-max-message-size", "65536", "--websocket-max-frame-size", "65536"]
PG_ADMIN = os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"


def choose_ports(base: int, n: int) -> list:
    """``n`` ports from ``base`` upward that nothing listens on now (chosen, not random: a
    benchmark's servers are found at known ports)."""
    ports, port = [], base
    while len(ports) < n:
        if port > 65535:
            raise RuntimeError(f"no {n} free ports from {base}")
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
                ports.append(port)
            except OSError:
                pass
        port += 1
    return ports


def wait_for_port(port: int, proc, log: Path, timeout: float = 30.0, host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the process on port {port} exited with {proc.returncode}:\n{tail(log)}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)  # a bounded poll for the port
    raise RuntimeError(f"nothing listens on {host}:{port} after {timeout} s:\n{tail(log)}")


def tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class Proc:
    def __init__(self, name: str, args: list, env: dict, log: Path, port: int | None = None, host: str = "127.0.0.1"):
        self.name, self.args, self.env, self.log, self.port, self.host = name, args, env, log, port, host
        self.popen = None

    def start(self) -> None:
        with open(self.log, "ab") as handle:
            self.popen = subprocess.Popen(self.args, cwd=ROOT, env=self.env, stdout=handle,
                                          stderr=subprocess.STDOUT, start_new_session=True)
        if self.port is not None:
            wait_for_port(self.port, self.popen, self.log, host=self.host)

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self, sig=signal.SIGKILL) -> None:
        """Signal the whole process group (a worker's threads and children too)."""
        if self.alive():
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                pass
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout=20)

    def stop(self) -> None:
        self.kill(signal.SIGTERM if self.name.startswith("web") else signal.SIGINT)


class Site:
    """Web processes and workers of the site on one database (and Redis when given)."""

    def __init__(self, tmp: Path, *, webs: int = 1, workers: int = 0, postgres: bool = False,
                 redis_url: str | None = None, env: dict | None = None, worker_threads: int = 2,
                 ports: list | None = None, long_workers: int | None = None, long_worker_args: list | None = None):
        """``workers`` quick workers and ``long_workers`` long ones (default: one when there
        is any quick worker, as ``make run`` starts them); ``long_worker_args`` replaces the
        long worker's command line (a test's own wrapper of ``run_long_worker``)."""
        self.tmp = Path(tmp)
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.pg_db = f"live_{secrets.token_hex(4)}" if postgres else None
        self.redis_url = redis_url
        base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH")}
        self.env = {**base, "DJANGO_SETTINGS_MODULE": "backgammon_site.settings", "DJANGO_DEBUG": "1",
                    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1",
                    "PYTHONPATH": str(ROOT), "SQLITE_PATH": str(self.tmp / "db.sqlite3"),
                    "GAMES_WORKER_THREADS": str(worker_threads),
                    "GAMES_WS_FLOOD_LIMIT": "1000",  # these clients act as fast as a machine can
                    "GAMES_ANALYSIS_AUTO": "0",  # the analysis tests turn it on
                    **(env or {})}
        if self.pg_db:
            self.env["DATABASE_URL"] = PG_ADMIN.rsplit("/", 1)[0] + "/" + self.pg_db
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        self.ports = list(ports or [])  # the web processes' ports (else free ones)
        self.webs = [self._web(i) for i in range(webs)]
        self.workers = [self._worker(i) for i in range(workers)]
        self.long_worker_args = long_worker_args or [sys.executable, "manage.py", "run_long_worker"]
        self.long_workers = [self._long_worker(i) for i in range((1 if workers else 0) if long_workers is None
                                                                  else long_workers)]

    def _web(self, i: int) -> Proc:
        port = self.ports[i] if i < len(self.ports) else free_port()
        return Proc(f"web{i}", [sys.executable, "-m", "backgammon_site.serve", "-b", "127.0.0.1", "-p", str(port), *DAPHNE_FLAGS,
                                "backgammon_site.asgi:application"], self.env, self.tmp / f"web{i}.log", port)

    def _worker(self, i: int) -> Proc:
        return Proc(f"worker{i}", [sys.executable, "manage.py", "run_huey"], self.env, self.tmp / f"worker{i}.log")

    def _long_worker(self, i: int) -> Proc:
        return Proc(f"long{i}", list(self.long_worker_args), self.env, self.tmp / f"long{i}.log")

    def processes(self) -> list:
        return self.webs + self.workers + self.long_workers

    # -- lifecycle ------------------------------------------------------------------------------
    def __enter__(self) -> "Site":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self.prepare()
        self.start_processes()

    def prepare(self, pg_template: str | None = None, sqlite_from: Path | None = None) -> None:
        """The database, migrated: a new one, or a copy of ``pg_template`` (a PostgreSQL
        database nobody is connected to) or of the SQLite file ``sqlite_from``."""
        if self.pg_db:
            _pg(f'CREATE DATABASE "{self.pg_db}"' + (f' TEMPLATE "{pg_template}"' if pg_template else ""))
        elif sqlite_from is not None:
            shutil.copyfile(sqlite_from, self.tmp / "db.sqlite3")
        if self.redis_url:
            flush_redis(self.redis_url)
        self.manage("migrate", "--noinput", "-v", "0")

    def save_database(self, pg_template: str | None = None, sqlite_to: Path | None = None) -> None:
        """Keep a copy of the database (no process of the site connected): a PostgreSQL
        database ``pg_template`` made from it, or the SQLite file copied to ``sqlite_to``."""
        if self.pg_db:
            _pg(f'CREATE DATABASE "{pg_template}" TEMPLATE "{self.pg_db}"')
        else:
            shutil.copyfile(self.tmp / "db.sqlite3", sqlite_to)

    def start_processes(self) -> None:
        for proc in self.processes():
            proc.start()

    def stop(self) -> None:
        for proc in self.processes():
            proc.stop()
        if self.pg_db:
            _pg(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')
        if self.redis_url:
            flush_redis(self.redis_url)

    def add_worker(self) -> Proc:
        proc = self._worker(len(self.workers))
        self.workers.append(proc)
        proc.start()
        return proc

    # -- running code in the site's environment ------------------------------------------------------
    def manage(self, *args, timeout: float = 300) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                                text=True, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def shell(self, code: str, timeout: float = 300):
        """Run ``code`` with ``manage.py shell``; it prints ``RESULT <json>``; returns the value."""
        out = self.manage("shell", "-c", code, timeout=timeout)
        line = next((line for line in reversed(out.splitlines()) if line.startswith("RESULT ")), None)
        if line is None:
            raise RuntimeError(f"no RESULT line in:\n{out}")
        return json.loads(line[len("RESULT "):])

    def sessions(self, usernames) -> dict:
        """A logged-in session cookie for each user (made in the database, no password hashing)."""
        return self.shell(SESSIONS % json.dumps(list(usernames)))

    def url(self, i: int = 0, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.webs[i].port}"

    def logs(self) -> str:
        return "\n".join(f"== {p.name}\n{tail(p.log)}" for p in self.processes())

    def tracebacks(self) -> list:
        found = []
        for proc in self.processes():
            text = proc.log.read_text(errors="replace") if proc.log.exists() else ""
            if "Traceback" in text or "Exception inside application" in text:
                found.append(proc.name)
        return found


SESSIONS = r"""
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
out = {}
for name in json.loads(%r):
    user = get_user_model().objects.get(username=name)
    s = SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "games.auth.ActivePlayerBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    out[name] = s.session_key
print("RESULT " + json.dumps(out))
"""


class RedisServer:
    """A Redis of our own on a chosen port (nothing kept on disk), to restart at will."""

    def __init__(self, port: int, tmp: Path):
        self.port, self.tmp = port, Path(tmp)
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc = None

    def start(self) -> None:
        log = open(self.tmp / f"redis-{self.port}.log", "ab")
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.tmp)], stdout=log, stderr=log,
                                     start_new_session=True)
        log.close()
        wait_for_port(self.port, self.proc, self.tmp / f"redis-{self.port}.log")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)

    def __enter__(self) -> "RedisServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def terminate_backends(database: str) -> int:
    """Terminate every PostgreSQL connection to ``database`` (a fault of the chaos run)."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = %s AND pid <> pg_backend_pid()", (database,)).fetchall()
    return len(rows)


def _pg(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=10)
    try:
        client.flushdb()
    finally:
        client.close()


# -- a websocket player that behaves like static/js -----------------------------------------------------


class GameClient:
    """One websocket on a match: folds what it receives into (game, version, phase, actor,
    legal plays), follows the match into its next game, resyncs on a gap, pings as the browser
    client does (``static/js/lib/socket.mjs``: when the server's own ping is late, and at once
    when the server's ping shows it behind), takes a socket that stays silent after its ping
    for dead, and reconnects (with ``?v=``) when the socket drops or is dead.

    ``old=True``: the browser client before issue 32, which pinged after every 3 s of silence
    and knew nothing of the server's ping (servers still answer it)."""

    PING_EVERY = 10.0  # s of silence before the client pings (socket.mjs's ``pingEvery``)
    DEAD_AFTER = PING_EVERY + 5.0  # s of silence with a ping unanswered: dead
    OLD_PING_EVERY = 3.0

    def __init__(self, base_ws, game_id: int, cookie: str | None, origin: str, color: str | None = None,
                 *, old: bool = False, ping_every: float | None = None, dead_after: float | None = None):
        # ``base_ws``: one server, or a list to pick from at every (re)connection, as a proxy would.
        self.bases = [base_ws] if isinstance(base_ws, str) else list(base_ws)
        self.cookie, self.origin, self.color = cookie, origin, color
        self.game, self.version = game_id, None
        self.phase = self.actor = None
        self.legal = None
        self.match_over = False
        self.ws = None
        self.heard_at = time.monotonic()
        self.received = []  # (wall-clock time, message) of every game event and snapshot
        self.errors = []
        self.changed = asyncio.Event()
        self.reconnects = 0
        self.old = old
        self.ping_every = ping_every or (self.OLD_PING_EVERY if old else self.PING_EVERY)
        self.dead_after = dead_after or (3 * self.ping_every if old else self.ping_every + 5.0)
        self.pinged_at = 0.0
        self.pings = self.server_pings = self.dead = 0

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        query = f"?v={self.version}" if self.version is not None else ""
        headers = {"Origin": self.origin}
        if self.cookie:
            headers["Cookie"] = f"sessionid={self.cookie}"
        # A random server first, then the others when it refuses: what a proxy in front of
        # several servers does (nginx's proxy_next_upstream), so a dead one costs no back-off.
        bases = random.sample(self.bases, len(self.bases))
        for i, base in enumerate(bases):
            try:
                self.ws = await connect(f"{base}/ws/games/{self.game}/{query}", additional_headers=headers,
                                        open_timeout=10, close_timeout=3, max_size=2**22)
                return
            except OSError:
                if i == len(bases) - 1:
                    raise

    async def run(self, stop: asyncio.Event) -> None:
        """Receive until ``stop``; reconnect when the socket drops."""
        delay = 0.2
        while not stop.is_set():
            try:
                if self.ws is None:
                    await self.connect()
                    delay = 0.2
                self.heard_at, self.pinged_at = time.monotonic(), 0.0
                pinger = asyncio.create_task(self._pings())
                try:
                    async for raw in self.ws:
                        answers = self.pinged_at > self.heard_at  # the first frame after our ping
                        self.heard_at = time.monotonic()
                        await self.on_message(json.loads(raw), answers)
                        if stop.is_set():
                            break
                finally:
                    pinger.cancel()
            except (OSError, asyncio.TimeoutError, Exception) as exc:  # a refused or dropped connection
                if stop.is_set():
                    break
                self.last_error = exc
            self.ws = None
            if stop.is_set():
                break
            self.reconnects += 1
            await asyncio.sleep(delay)  # back-off before reconnecting, like the browser client
            delay = min(delay * 2, 2.0)

    async def _pings(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.ping_every / 3))
            now = time.monotonic()
            if self.pinged_at > self.heard_at and now - self.heard_at > self.dead_after:
                self.dead += 1  # silent after our ping: drop it without waiting for its close
                self.ws.transport.abort()
                return
            if now - self.heard_at >= self.ping_every and now - self.pinged_at >= self.ping_every:
                await self.ping()

    async def ping(self) -> None:
        self.pinged_at = time.monotonic()
        self.pings += 1
        await self.send({"t": "ping", "d": {}, "v": self.version, "game": self.game})

    def behind(self, d: dict) -> bool:
        """Whether a pong's ``d`` (the game and version the server has sent) shows us behind."""
        if d.get("game") == self.game:
            return type(d.get("v")) is int and d["v"] > (self.version or 0)
        return type(d.get("game")) is int and d["game"] > self.game

    async def send(self, message: dict) -> bool:
        try:
            await self.ws.send(json.dumps(message))
            return True
        except Exception:
            return False

    async def act(self, kind: str, data: dict | None = None) -> bool:
        return await self.send({"t": kind, "d": data or {}, "v": self.version, "game": self.game})

    async def on_message(self, m: dict, answers: bool = False) -> None:
        t = m.get("t")
        if t == "pong":
            if not answers:
                self.server_pings += 1
                if not self.old and self.behind(m["d"]):
                    await self.ping()
        elif t == "error":
            self.errors.append(m["d"])
        elif t == "snapshot":
            d = m["d"]
            self.game, self.version, self.phase, self.actor = d["game"], m["v"], d["phase"], d["actor"]
            self.legal = d.get("legalMoves") or None
            self.match_over = d["match"]["status"] in ("finished", "aborted")
            self.received.append((time.time(), m))
        elif m.get("game") is not None and type(m.get("v")) is int:
            if m["game"] != self.game:
                if not (t == "game_start" and m["v"] == 1 and m["game"] > self.game):
                    return
                self.game, self.version, self.phase, self.actor, self.legal = m["game"], 0, "opening", None, None
            if self.version is not None and m["v"] <= self.version:
                return
            if self.version is not None and m["v"] != self.version + 1:
                await self.send({"t": "resync", "d": {"v": self.version}})
                return
            self.version = m["v"]
            self.received.append((time.time(), m))
            if "state" in m:
                self.phase, self.actor = m["state"]["phase"], m["state"]["actor"]
            self.legal = m.get("legalMoves")
            if t == "game_end":
                self.phase, self.actor = "over", None
                self.match_over = bool(m["d"].get("matchOver"))
        self.changed.set()

    def my_turn(self) -> bool:
        return self.color is not None and self.actor == self.color and not self.match_over

    def decision(self):
        """What a simple player does now: ``(type, data)`` or None."""
        if not self.my_turn():
            return None
        if self.phase == "turn":
            return "roll", {}
        if self.phase == "move" and self.legal is not None:
            return "move", {"moves": self.legal[0] if self.legal else []}
        if self.phase == "cube_offered":
            return "take", {}
        if self.phase == "resign_offered":
            return "resign_reject", {}
        return None


async def play_until_over(client: GameClient, stop: asyncio.Event, timeout: float, think: tuple = (0, 0),
                          on_act=None) -> int:
    """Play ``client``'s side (the simple player of :meth:`GameClient.decision`) until the match
    is over; returns the number of actions sent. Acts once per version it holds, and again if
    nothing came back for 5 s (an action lost with a dropped socket)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    acted, acted_at, actions = None, 0.0, 0
    while not client.match_over and not stop.is_set():
        if loop.time() > deadline:
            last = [(m["t"], m.get("v"), m.get("game"), (m.get("state") or {}).get("actor"),
                     "legal" if "legalMoves" in m else "") for _, m in client.received[-4:]]
            raise AssertionError(f"the match was not over after {timeout} s (phase {client.phase}, "
                                 f"actor {client.actor}, v{client.version}, errors {client.errors[-3:]}, "
                                 f"reconnects {client.reconnects}, last {last})")
        decision = client.decision()
        key = (client.game, client.version)
        if decision is not None and client.ws is not None and (key != acted or loop.time() - acted_at > 5):
            if think[1]:
                await asyncio.sleep(random.uniform(*think))  # a human's pace
                if (client.game, client.version) != key:
                    continue
            if await client.act(*decision):
                acted, acted_at, actions = key, loop.time(), actions + 1
                if on_act is not None:
                    on_act(key, decision[0])
        client.changed.clear()
        try:
            await asyncio.wait_for(client.changed.wait(), timeout=1.0)
        except asyncio.TimeoutError:
            pass
    return actions

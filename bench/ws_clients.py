"""The clients of the capacity benchmark (bench/ws_bench.py): games of websocket players and
spectators that move at a given rate, and what a step of the benchmark measured."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import time

from tests.live import GameClient

LATENCY_LIMIT = 0.100  # p99 move -> every socket
LOST_AFTER = 5.0  # seconds: a move not everywhere by then is lost
PING_EVERY = GameClient.PING_EVERY  # s: static/js/lib/socket.mjs's (silence before the app ping)
OLD_PING_EVERY = GameClient.OLD_PING_EVERY  # s: the browser's before issue 32
PINGS = ("browser", "old-browser", "protocol")  # what idle clients do (``Clients(pings=...)``)


# -- measuring ---------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))]


class Step:
    """One rate held for a while: what was sent, what arrived, what it cost."""

    def __init__(self, rate: float):
        self.rate, self.sent, self.latency = rate, 0, []
        self.errors: dict = {}
        self.lost = 0
        self.elapsed = 1.0
        self.cpu = []  # CPU seconds of each web process over the step
        self.client_cpu = 0.0

    @property
    def sustained(self) -> float:
        return len(self.latency) / self.elapsed

    def cpu_ms_per_move(self) -> float:
        return 1000 * sum(self.cpu) / max(1, len(self.latency))

    def holds(self) -> bool:
        return (not self.errors and not self.lost and pct(self.latency, 99) < LATENCY_LIMIT
                and self.sustained >= 0.9 * self.rate)

    def line(self) -> str:
        ms = [x * 1000 for x in self.latency]
        return (f"  {self.rate:6.0f}/s  sustained {self.sustained:6.1f}/s  p50 {pct(ms, 50):7.1f} ms  "
                f"p99 {pct(ms, 99):7.1f} ms  CPU/move {self.cpu_ms_per_move():6.2f} ms "
                f"({' + '.join(f'{c / self.elapsed:.0%}' for c in self.cpu)} of a core)  "
                f"client {self.client_cpu / self.elapsed:.0%}  errors {self.errors or 0}  lost {self.lost}  "
                f"{'holds' if self.holds() else 'FAILS'}")


# -- the clients ----------------------------------------------------------------------------------------


class Game:
    def __init__(self, spec, roles):
        self.id = spec["game"]
        self.sessions = spec["sessions"]
        self.roles = roles
        self.sockets = {}
        self.held = {}  # role -> (game id, version) its client holds (what its idle ping says)
        self.ready = None  # (role, game id, version, play) when the player on roll has its plays
        self.pending = None  # [game id, version, t0, roles still to receive]


class Clients:
    """The benchmark's sockets. ``pings`` says what an idle one does:

    - ``browser``: as ``static/js/lib/socket.mjs`` does: no websocket protocol pings (browsers
      send none; they answer the server's), the app's ping (with the version held) after
      ``PING_EVERY`` s of silence, i.e. when the server's own ping is late, and at once when
      the server's ping shows the socket behind;
    - ``old-browser``: the browser before issue 32: the app's ping after every
      ``OLD_PING_EVERY`` s of silence (servers still answer it);
    - ``protocol``: no app ping, the ``websockets`` library's protocol ping every 20 s (the
      benchmark's clients before).

    ``browser_pings`` (the older option): ``browser`` when true, ``protocol`` when not."""

    def __init__(self, specs, spectators: int, ports_of: list, pids: list, browser_pings: bool = False,
                 pings: str | None = None, host: str = "127.0.0.1"):
        roles = ["white", "black"] + [f"spectator{k}" for k in range(spectators)]
        self.games = [Game(s, roles) for s in specs]
        self.ports, self.pids, self.host = ports_of, pids, host  # host: the servers' (or their proxy's) address
        self.rng = random.Random(7)
        self.step = None
        self.readers = []
        self.stray_errors: dict = {}
        self.pings_mode = pings or ("browser" if browser_pings else "protocol")
        if self.pings_mode not in PINGS:
            raise ValueError(f"pings: one of {PINGS}")
        self.browser_pings = self.pings_mode != "protocol"  # app pings, no protocol pings
        self.ping_every = OLD_PING_EVERY if self.pings_mode == "old-browser" else PING_EVERY
        self.heard: dict = {}  # socket -> monotonic time of its last message in
        self.pinged: dict = {}  # socket -> monotonic time of its last app ping out
        self.pings = self.pongs = 0  # idle pings sent, and pongs received (answers and the server's pings)
        self.server_pings = 0  # pongs that answered no ping of ours: the server's own pings
        self.pinger = None

    def error(self, what: str) -> None:
        target = self.step.errors if self.step is not None else self.stray_errors
        target[what] = target.get(what, 0) + 1

    async def connect(self, games, ports) -> None:
        """Open every socket of ``games``, round robin over ``ports``; wait until every game's
        player on roll has its legal plays (bounded)."""
        from websockets.asyncio.client import connect

        sem = asyncio.Semaphore(10)
        count = 0

        async def one(game, role, port):
            ws = None
            for _attempt in range(3):  # a server busy with many handshakes may drop one: try again
                async with sem:
                    try:
                        ws = await connect(f"ws://{self.host}:{port}/ws/games/{game.id}/",
                                           additional_headers={"Cookie": f"sessionid={game.sessions[role]}",
                                                               "Origin": f"http://{self.host}:{port}"},
                                           open_timeout=60, max_queue=None, compression=None,
                                           ping_interval=None if self.browser_pings else 20)
                        break
                    except Exception as exc:  # noqa: BLE001 - counted
                        failed = f"connect {type(exc).__name__}"
            if ws is None:
                self.stray_errors[failed] = self.stray_errors.get(failed, 0) + 1
                return
            game.sockets[role] = ws
            self.heard[ws] = time.monotonic()
            self.readers.append(asyncio.get_running_loop().create_task(self.reader(game, role, ws)))

        jobs = []
        for game in games:
            game.ready = game.pending = None
            for role in game.roles:
                jobs.append(one(game, role, ports[count % len(ports)]))
                count += 1
        await asyncio.gather(*jobs)
        if self.browser_pings and self.pinger is None:
            self.pinger = asyncio.get_running_loop().create_task(self.ping_idle())
        deadline = time.monotonic() + 60
        while not all(g.ready for g in games) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if not all(g.ready for g in games):
            self.stray_errors["games never ready"] = sum(1 for g in games if not g.ready)
        await self.settle()

    async def ping_idle(self) -> None:
        """Like a browser: a socket that has heard nothing for ``ping_every`` s (and has not
        pinged for as long) sends the app's idle ping with the version it holds
        (docs/PROTOCOL.md, "Delivery")."""
        every = self.ping_every
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()
            for game in self.games:
                for role, ws in list(game.sockets.items()):
                    if now - self.heard.get(ws, now) < every or now - self.pinged.get(ws, 0.0) < every:
                        continue
                    await self.ping(game, role, ws)

    async def ping(self, game, role, ws) -> None:
        self.pinged[ws] = time.monotonic()
        gid, version = game.held.get(role, (game.id, 0))
        try:
            await ws.send(json.dumps({"t": "ping", "d": {}, "v": version, "game": gid}))
            self.pings += 1
        except Exception as exc:  # noqa: BLE001 - counted
            self.error(f"ping {type(exc).__name__}")

    @staticmethod
    def behind(held, d) -> bool:
        """Whether the server's ping (a pong's ``d``) shows a socket holding ``held`` behind."""
        gid, version = held
        return d.get("v", 0) > version if d.get("game") == gid else (d.get("game") or 0) > gid

    async def close(self) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
            await asyncio.gather(self.pinger, return_exceptions=True)
            self.pinger = None
        await asyncio.gather(*(ws.close() for g in self.games for ws in g.sockets.values()), return_exceptions=True)
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        self.readers = []
        for game in self.games:
            game.sockets, game.ready, game.pending, game.held = {}, None, None, {}
        self.heard, self.pinged = {}, {}

    async def reader(self, game, role, ws) -> None:
        try:
            async for raw in ws:
                now = time.perf_counter()
                answers = self.pinged.get(ws, 0.0) > self.heard.get(ws, 0.0)  # the first frame after our ping
                self.heard[ws] = time.monotonic()
                m = json.loads(raw)
                t = m.get("t")
                if t == "pong":
                    self.pongs += 1
                    if not answers:
                        self.server_pings += 1
                        if self.pings_mode == "browser" and self.behind(game.held.get(role, (game.id, 0)), m["d"]):
                            await self.ping(game, role, ws)
                    continue
                if t == "error":
                    self.error(f"error {m['d'].get('code')}")
                    continue
                if t == "snapshot":
                    m["game"], legal = m["d"]["game"], m["d"].get("legalMoves")
                else:
                    legal = m.get("legalMoves")
                gid = m.get("game")
                if gid is None:
                    continue
                if gid > game.id:
                    game.id = gid  # the session's next game
                if type(m.get("v")) is int and (gid, m["v"]) > game.held.get(role, (0, 0)):
                    game.held[role] = (gid, m["v"])
                p = game.pending
                if t == "move" and p is not None and gid == p[0] and m["v"] == p[1] and role in p[3]:
                    p[3].discard(role)
                    if not p[3]:
                        if self.step is not None:
                            self.step.latency.append(now - p[2])
                        game.pending = None
                if legal is not None and gid == game.id and (m.get("state") or m["d"]).get("actor") == role:
                    game.ready = (role, gid, m["v"], self.rng.choice(legal) if legal else [])
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - counted, the run goes on
            self.error(f"socket {type(exc).__name__}")

    async def run_step(self, games, rate: float, duration: float) -> Step:
        """Send ``rate`` moves/s for ``duration`` s, round robin over the ready ``games``."""
        step = self.step = Step(rate)
        # The client collects no garbage during a step: a full collection of its 2000
        # sockets' objects paused it for 150 ms, which the step counted as the server's
        # latency (issue 16: it failed steps the server held). It collects between steps.
        gc.collect()
        gc.disable()
        try:
            return await self._run_step(step, games, rate, duration)
        finally:
            gc.enable()

    async def _run_step(self, step, games, rate: float, duration: float) -> Step:
        loop = asyncio.get_running_loop()
        cpu0, client0 = [cpu_seconds(pid) for pid in self.pids], time.process_time()
        start = tick = loop.time()
        cursor, n = 0, len(games)
        while loop.time() < start + duration:
            tick += 1.0 / rate
            for k in range(n):
                game = games[(cursor + k) % n]
                if game.ready is not None and game.pending is None:
                    cursor = (cursor + k + 1) % n
                    role, gid, version, play = game.ready
                    game.ready = None
                    game.pending = [gid, version + 1, time.perf_counter(), set(game.roles)]
                    await game.sockets[role].send(json.dumps({"t": "move", "d": {"moves": play}, "v": version,
                                                              "game": gid}))
                    step.sent += 1
                    break
            await asyncio.sleep(max(0.0, tick - loop.time()))
        step.elapsed = loop.time() - start
        deadline = loop.time() + LOST_AFTER
        while any(g.pending for g in games) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        step.cpu = [cpu_seconds(pid) - c for pid, c in zip(self.pids, cpu0)]
        step.client_cpu = time.process_time() - client0
        for game in games:
            if game.pending is not None:
                step.lost += 1
                game.pending = None
        self.step = None
        return step

    async def settle(self, limit: float = 180.0) -> None:
        """Wait (bounded) until the web processes are idle: a socket's handshake is done
        before its connect work is (catch-up, presence), and a step must not start behind a
        backlog of it."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            used = [cpu_seconds(pid) for pid in self.pids]
            await asyncio.sleep(1.0)
            if all(cpu_seconds(pid) - u < 0.15 for pid, u in zip(self.pids, used)):
                return

    async def idle_cpu(self, pid: int, seconds: float) -> float:
        """CPU seconds ``pid`` spends over ``seconds`` with no moves (its sockets just connected)."""
        c0 = cpu_seconds(pid)
        await asyncio.sleep(seconds)
        return cpu_seconds(pid) - c0


# -- the phases -------------------------------------------------------------------------------------------

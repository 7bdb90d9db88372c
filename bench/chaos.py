"""The chaos run: real processes, real services, faults while matches are played.

    .venv/bin/python bench/chaos.py                      # every scenario, 3-point matches
    .venv/bin/python bench/chaos.py --length 1 --scenarios none,kill-web
    BENCH_REDIS_PORT=6391 .venv/bin/python bench/chaos.py

It starts a Redis of its own (``--redis-port``, default 6391), a fresh PostgreSQL database on
``TEST_DATABASE_URL``'s server, two Daphne processes and one worker. For each scenario it
plays at least ten matches at once, at a human pace: websocket players that behave like
``static/js`` (``tests.live.GameClient``: versions, resync on a gap, an idle ping with the
version held, reconnection to any live server), a spectator on each of those matches,
humans against house bots (played by the worker), and bot-API agents (matchmaking queue,
long polls, actions). While they play it injects the scenario's fault:

* ``none``: no fault;
* ``kill-web``: SIGKILL one Daphne, start it again a second later;
* ``restart-redis``: stop Redis (everything in it is lost), start it again a second later;
* ``terminate-pg``: terminate every PostgreSQL connection of the site's database.

Then it checks, from the clients' records and the database:

* **lost**: actions a client saw acknowledged (its own event came back, or the API answered
  200) that are not in the event log;
* **gaps**: games whose event versions are not 1..N;
* **stalls**: events a client received more than 5 s after they were written (or never);
* **5xx**: server errors outside the fault's own seconds (the fault's start to 3 s after it
  ends) and within them;
* **presence**: presence rows left once every client has gone (the workers sweep rows whose
  heartbeat stopped);
* **unfinished**: matches not finished.

It prints one row per scenario, and exits 1 if any of lost, gaps, stalls, unexplained 5xx,
presence or unfinished is not zero (``--no-check`` to only print).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live import GameClient, RedisServer, Site, play_until_over, terminate_backends  # noqa: E402

SCENARIOS = ("none", "kill-web", "restart-redis", "terminate-pg")
STALL = 5.0  # seconds: a client later than this is left behind
GRACE = 3.0  # seconds after a fault's end that still count as "the fault itself"
FAULTS = {}  # more scenarios: name -> async function(site, agents) that injects the fault (bench/hosts.py)

SETUP = r"""
import json
from games import services
n, length, run = %d, %d, %r
out = {"pairs": [], "bots": []}
for i in range(n):
    a = services.player_register(username=f"{run}w{i}", password=None)
    b = services.player_register(username=f"{run}b{i}", password=None)
    s = services.player_register(username=f"{run}s{i}", password=None)
    match = services.match_create(creator=a, length=length)
    services.match_join(player=b, match_id=match.pk)
    out["pairs"].append({"match": match.pk, "game": match.games.get().pk,
                         "white": a.user.username, "black": b.user.username, "spectator": s.user.username})
for i in range(%d):
    h = services.player_register(username=f"{run}h{i}", password=None)
    match = services.match_vs_bot(player=h, level="beginner", length=length)
    out["bots"].append({"match": match.pk, "game": match.games.get().pk, "white": h.user.username})
print("RESULT " + json.dumps(out))
"""


@dataclass
class Record:
    """What the clients saw, for the checks."""

    acked: list = field(default_factory=list)  # (match, game id or (number, version), kind, player name)
    seen: list = field(default_factory=list)  # (client, match, wall time, game id or number, version)
    http: list = field(default_factory=list)  # (wall time, status)
    clients: dict = field(default_factory=dict)  # client -> (match, first connected at, stopped at)


# -- websocket players ------------------------------------------------------------------------------


async def ws_player(site: Site, rec: Record, name: str, match: int, game: int, cookie: str, color, length_s):
    bases = [site.url(i, "ws") for i in range(len(site.webs))]
    client = GameClient(bases, game, cookie, site.url(0), color=color)
    stop = asyncio.Event()
    for _ in range(50):
        try:
            await client.connect()
            break
        except Exception:
            await asyncio.sleep(0.2)
    rec.clients[name] = [match, time.time(), None]
    runner = asyncio.create_task(client.run(stop))
    acted = []
    try:
        if color is None:  # a spectator: watch until the match is over
            end = time.monotonic() + length_s
            while not client.match_over and time.monotonic() < end:
                client.changed.clear()
                try:
                    await asyncio.wait_for(client.changed.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
        else:
            await play_until_over(client, stop, timeout=length_s, think=(0.05, 0.3),
                                  on_act=lambda key, kind: acted.append((key, kind)))
    finally:
        rec.clients[name][2] = time.time()
        stop.set()
        if client.ws is not None:
            await client.ws.close()
        try:
            await asyncio.wait_for(runner, 10)
        except Exception:
            pass
    # An action is acknowledged when its own event came back to this client.
    mine = {(m["game"], m["v"]): m for _, m in client.received if m.get("game") and m["t"] != "snapshot"}
    for (game_id, version), kind in acted:
        event = mine.get((game_id, version + 1))
        if event is not None and event["t"] == kind and event["d"].get("color") == color:
            rec.acked.append((match, game_id, version + 1, kind, color))
    for at, m in client.received:
        if m["t"] == "snapshot":
            rec.seen.append((name, match, at, m["d"]["game"], m["v"]))
        else:
            rec.seen.append((name, match, at, m["game"], m["v"]))
    return client


# -- bot-API agents --------------------------------------------------------------------------------


class Agent:
    def __init__(self, site: Site, rec: Record, name: str):
        self.site, self.rec, self.name = site, rec, name
        self.key = None
        self.alive_bases = list(range(len(site.webs)))

    def call(self, method, path, body=None, timeout=40.0):
        """One request to a random live server; retried on another when the connection fails."""
        for attempt in range(60):
            base = self.site.url(random.choice(self.alive_bases))
            data = json.dumps(body).encode() if body is not None else None
            request = urllib.request.Request(base + path, data=data, method=method,
                                             headers={"Content-Type": "application/json",
                                                      **({"Authorization": f"Bearer {self.key}"} if self.key else {})})
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    self.rec.http.append((time.time(), response.status))
                    return response.status, json.loads(response.read() or b"{}")
            except urllib.error.HTTPError as exc:
                self.rec.http.append((time.time(), exc.code))
                if exc.code >= 500 or exc.code == 429:
                    time.sleep(0.3)
                    continue
                return exc.code, json.loads(exc.read() or b"{}")
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                time.sleep(0.3)  # the server went away: try again (possibly another one)
        raise RuntimeError(f"{self.name}: no server answered {method} {path}")

    def play(self, length: int, deadline: float) -> None:
        status, data = self.call("POST", "/api/agents", {"name": self.name})
        assert status == 201, (status, data)
        self.key = data["apiKey"]
        status, data = self.call("POST", "/api/matchmaking/queue", {"gameId": "backgammon", "matchLength": length})
        while data.get("status") != "matched":
            assert time.time() < deadline, f"{self.name} was never matched"
            time.sleep(0.3)
            status, data = self.call("GET", "/api/matchmaking/queue")
        match = data["matchId"]
        self.rec.clients[self.name] = [match, time.time(), None]
        status, view = self.call("GET", f"/api/matches/{match}")
        while not view.get("matchOver"):
            assert time.time() < deadline, f"{self.name}: the match was not over in time"
            self.rec.seen.append((self.name, match, time.time(), ("n", view["gameNumber"]), view["gameVersion"]))
            if view["isYourTurn"]:
                time.sleep(random.uniform(0.05, 0.3))  # a human's pace
                kind, extra = self.decide(view)
                before = view
                status, answer = self.call("POST", f"/api/matches/{match}/actions",
                                           {"type": kind, "version": view["version"], **extra})
                if status == 200:
                    self.rec.acked.append((match, ("n", before["gameNumber"]), before["gameVersion"] + 1, kind,
                                           before["yourColor"]))
                    view = answer
                    continue
                status, view = self.call("GET", f"/api/matches/{match}")
                continue
            status, view = self.call("GET", f"/api/matches/{match}?wait=10&since={view['version']}")
        self.rec.seen.append((self.name, match, time.time(), ("n", view["gameNumber"]), view["gameVersion"]))
        self.rec.clients[self.name][2] = time.time()

    @staticmethod
    def decide(view):
        pending = view.get("pendingOffer")
        if pending and pending["type"] == "double":
            return "take", {}
        if pending and pending["type"] == "resign":
            return "reject", {}
        if view["phase"] == "turn":
            return "roll", {}
        return "move", {"moves": view["legalMoves"][0] if view["legalMoves"] else []}


# -- one scenario ------------------------------------------------------------------------------------


async def run_scenario(site: Site, redis: RedisServer, scenario: str, *, pairs: int, bots: int, agents: int,
                       length: int, fault_after: float, timeout: float) -> dict:
    run = f"{scenario.replace('-', '')[:6]}{random.randint(100, 999)}"
    setup = site.shell(SETUP % (pairs, length, run, bots))
    names = [p[k] for p in setup["pairs"] for k in ("white", "black", "spectator")] + [b["white"] for b in setup["bots"]]
    cookies = site.sessions(names)
    rec = Record()
    started = time.time()
    deadline = started + timeout
    loop = asyncio.get_running_loop()
    tasks = []
    for p in setup["pairs"]:
        for role, color in (("white", "white"), ("black", "black"), ("spectator", None)):
            tasks.append(ws_player(site, rec, p[role], p["match"], p["game"], cookies[p[role]], color, timeout))
    for b in setup["bots"]:
        tasks.append(ws_player(site, rec, b["white"], b["match"], b["game"], cookies[b["white"]], "white", timeout))
    agent_objs = [Agent(site, rec, f"{run}a{i}") for i in range(agents * 2)]
    for agent in agent_objs:
        tasks.append(loop.run_in_executor(None, agent.play, length, deadline))
    fault = asyncio.create_task(inject(site, redis, scenario, fault_after, agent_objs))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    window = await fault
    errors = [r for r in results if isinstance(r, BaseException)]
    for r in errors:
        print(f"  client error: {r!r}"[:1500], file=sys.stderr)
    return check(site, rec, scenario, window, started, errors)


async def inject(site: Site, redis: RedisServer, scenario: str, after: float, agents) -> tuple | None:
    await asyncio.sleep(after)
    start = time.time()
    if scenario == "kill-web":
        for agent in agents:
            agent.alive_bases = [1]
        site.webs[0].kill(signal.SIGKILL)
        await asyncio.sleep(1.0)
        await asyncio.get_running_loop().run_in_executor(None, site.webs[0].start)
        for agent in agents:
            agent.alive_bases = [0, 1]
    elif scenario == "restart-redis":
        redis.stop()
        await asyncio.sleep(1.0)
        redis.start()
    elif scenario == "terminate-pg":
        terminate_backends(site.pg_db)
    elif scenario in FAULTS:
        await FAULTS[scenario](site, agents)
    elif scenario != "none":
        raise SystemExit(f"unknown scenario {scenario}")
    return (start, time.time()) if scenario != "none" else None


FACTS = r"""
import json
from django.db.models import Count
from games.models import Connection, Game, GameEvent, Match
ids = %s
games = {g.pk: (g.match_id, g.number, g.version) for g in Game.objects.filter(match_id__in=ids)}
events = [(e.game_id, e.version, e.type, e.created_at.timestamp(), e.payload.get("color"))
          for e in GameEvent.objects.filter(game__match_id__in=ids)]
matches = {m.pk: m.status for m in Match.objects.filter(pk__in=ids)}
stuck = {}
for m in Match.objects.filter(pk__in=ids).exclude(status="finished"):
    g = m.games.order_by("-number").first()
    stuck[m.pk] = {"white": str(m.white), "black": str(m.black), "game": g.pk, "version": g.version,
                   "phase": g.state["phase"], "last": [(e.version, e.type, e.created_at.isoformat())
                                                       for e in g.events.order_by("-version")[:3]]}
print("RESULT " + json.dumps({"games": games, "events": events, "matches": matches, "stuck": stuck,
                               "presence": Connection.objects.count()}))
"""


def check(site: Site, rec: Record, scenario: str, window, started: float, errors: list) -> dict:
    match_ids = sorted({c[0] for c in rec.clients.values()})
    # Presence: every client has gone; the rows of sockets killed with their server go stale
    # and the workers sweep them. Wait (bounded) for that.
    end = time.time() + 60
    while True:
        facts = site.shell(FACTS % json.dumps(match_ids))
        if facts["presence"] == 0 or time.time() > end:
            break
        time.sleep(1.0)
    games = {int(k): v for k, v in facts["games"].items()}
    by_number = {(m, n): g for g, (m, n, _v) in games.items()}
    events = {(g, v): (t, at, color) for g, v, t, at, color in facts["events"]}
    # lost: acknowledged actions missing from the log
    lost = 0
    for match, game, version, kind, color in rec.acked:
        if isinstance(game, list | tuple):
            game = by_number.get((match, game[1]))
        event = events.get((game, version))
        if event is None or event[0] != kind or event[2] != color:
            lost += 1
    # gaps
    gaps = 0
    for g, (_m, _n, version) in games.items():
        have = sorted(v for (gg, v) in events if gg == g)
        if have != list(range(1, version + 1)):
            gaps += 1
    # stalls: for every client and every event of its match written while it was there, when it
    # first held that version, a later one of the same game, or a later game of the match (an
    # agent's view moves to the next game as soon as it starts: it has passed the last one)
    stalls, worst = 0, 0.0
    seen_by = {}
    for name, match, at, game, version in rec.seen:
        if isinstance(game, list | tuple):
            game = by_number.get((match, game[1]))
        if game in games:
            seen_by.setdefault(name, []).append((at, games[game][1], version))
    for name, (match, first, stopped) in rec.clients.items():
        stopped = stopped or time.time()
        for (g, v), (kind, at, _c) in events.items():
            if games[g][0] != match or at < first + 1.0 or at > stopped - STALL:
                continue
            number = games[g][1]
            times = [t for t, n, held in seen_by.get(name, []) if n > number or (n == number and held >= v)]
            lag = (min(times) - at) if times else float("inf")
            worst = max(worst, lag)
            if lag > STALL:
                stalls += 1
                if stalls <= 10:  # what was late, for whoever reads the run
                    print(f"  stall: {name} (match {match}) held game {g} v{v} ({kind}) after {lag:.1f} s",
                          file=sys.stderr)
    # 5xx inside and outside the fault's own seconds
    inside = outside = 0
    for at, status in rec.http:
        if status >= 500:
            if window and window[0] <= at <= window[1] + GRACE:
                inside += 1
            else:
                outside += 1
    unfinished = sum(1 for status in facts["matches"].values() if status != "finished")
    for match_id, info in facts["stuck"].items():
        print(f"  unfinished match {match_id}: {info}", file=sys.stderr)
    return {"scenario": scenario, "matches": len(match_ids), "acked": len(rec.acked), "lost": lost, "gaps": gaps,
            "stalls": stalls, "worst_lag": worst, "5xx_fault": inside, "5xx_other": outside,
            "presence": facts["presence"], "unfinished": unfinished, "client_errors": len(errors),
            "seconds": time.time() - started}


def table(rows: list) -> str:
    head = ("scenario", "matches", "acked actions", "lost", "games with gaps", "stalls > 5 s", "worst lag s",
            "5xx in fault", "5xx outside", "stale presence", "unfinished", "client errors", "seconds")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append(f"| {r['scenario']} | {r['matches']} | {r['acked']} | {r['lost']} | {r['gaps']} | {r['stalls']} "
                     f"| {r['worst_lag']:.2f} | {r['5xx_fault']} | {r['5xx_other']} | {r['presence']} "
                     f"| {r['unfinished']} | {r['client_errors']} | {r['seconds']:.0f} |")
    return "\n".join(lines)


def failed(row: dict) -> bool:
    return any(row[k] for k in ("lost", "gaps", "stalls", "5xx_other", "presence", "unfinished", "client_errors"))


CHAOS_ENV = {
    "GAMES_PRESENCE_HEARTBEAT": "2", "GAMES_PRESENCE_STALE_AFTER": "6", "GAMES_PERIODIC_SCALE": "0.4",
    "GAMES_API_RATE_LIMIT": "1000", "DJANGO_LOG_LEVEL": "WARNING",
}


def run(scenarios, *, pairs=4, bots=2, agents=4, length=3, fault_after=6.0, timeout=240.0, redis_port=6391,
        tmp=None) -> list:
    tmp = Path(tmp or tempfile.mkdtemp(prefix="chaos-"))
    rows = []
    with RedisServer(redis_port, tmp) as redis, \
            Site(tmp, webs=2, workers=1, postgres=True, redis_url=redis.url, env=CHAOS_ENV, worker_threads=4) as site:
        for scenario in scenarios:
            loop = asyncio.new_event_loop()
            loop.set_default_executor(ThreadPoolExecutor(max_workers=64))
            try:
                row = loop.run_until_complete(run_scenario(
                    site, redis, scenario, pairs=pairs, bots=bots, agents=agents, length=length,
                    fault_after=fault_after, timeout=timeout))
            finally:
                loop.close()
            rows.append(row)
            print(table([row]).splitlines()[-1], flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--pairs", type=int, default=4, help="websocket matches (two players and a spectator)")
    parser.add_argument("--bots", type=int, default=2, help="matches of a websocket player against a house bot")
    parser.add_argument("--agents", type=int, default=4, help="matches between two bot-API agents")
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--fault-after", type=float, default=6.0)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--redis-port", type=int, default=int(os.environ.get("BENCH_REDIS_PORT", "6391")))
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    scenarios = [s for s in args.scenarios.split(",") if s]
    rows = run(scenarios, pairs=args.pairs, bots=args.bots, agents=args.agents, length=args.length,
               fault_after=args.fault_after, timeout=args.timeout, redis_port=args.redis_port)
    print()
    print(table(rows))
    return 1 if not args.no_check and any(failed(r) for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())

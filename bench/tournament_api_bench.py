"""Bot-API agents in a Swiss, on PostgreSQL + Redis with two web processes (issue 30, "Scale").

    .venv/bin/python bench/tournament_api_bench.py                     # 64 agents, 5 rounds, 1-point matches
    .venv/bin/python bench/tournament_api_bench.py --agents 8 --rounds 3

The site as a deployment runs it: two Daphne processes on one fresh PostgreSQL database
(on the server of ``TEST_DATABASE_URL``) and one Redis (``TEST_REDIS_URL``; the channel
layer, the long-poll wake-ups and the API's rate limit are shared through it). ``manage.py
tournament create --format swiss`` opens the tournament; then every agent does what
docs/BOT_API.md tells an agent to do, on its own thread and over HTTP only, the agents
alternating between the two web processes: ``POST /api/agents``, ``POST
/api/tournaments/{id}/entries``; once ``manage.py tournament start`` has made the draw, it
finds its pairing's match in ``GET /api/matches?status=playing``, plays it with long polls
(``?wait=&since=``) and ``POST .../actions`` (a random legal play, seeded;
``--resign-after N`` resigns a game after N plays, to keep a short run short), and looks
again until ``GET /api/tournaments/{id}`` says the event is finished.

Printed: the total time (the draw to the last result, from the database), each round's
time (its first match's start to its last match's end), the matches, moves and turns,
the API requests' p50/p95/p99 (long polls apart: they wait on purpose), the errors (any
answer that is not 2xx, a client failure or a traceback in a server log: 0 expected), and
the final standings check: the rounds asked for, every entrant in one match or a bye each
round, no pairing twice, every match finished with a winner.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live import Site  # noqa: E402

IDLE_POLL = 1.0  # s between two looks for the next pairing while a round is still being played
DETAIL_EVERY = 10  # idle looks between two reads of the tournament (is it over?)
LONG_POLL = 20  # s a long poll may wait

ROUNDS = """
import json
from django.db.models import Max, Min, Count
from games.models import GameEvent, Tournament, TournamentMatch
t = Tournament.objects.get(pk=%d)
links = TournamentMatch.objects.filter(tournament=t, replaced=False)
rounds = list(links.values("round").annotate(first=Min("match__started_at"), last=Max("match__finished_at"),
                                             n=Count("pk")).order_by("round"))
turns = GameEvent.objects.filter(game__match__tournament_link__tournament=t, actor__isnull=False).count()
iso = lambda at: at.isoformat() if at else None
print("RESULT " + json.dumps({
    "status": t.status, "started": iso(t.started_at), "finished": iso(t.finished_at), "turns": turns,
    "rounds": [{"round": r["round"], "first": iso(r["first"]), "last": iso(r["last"]), "matches": r["n"]}
               for r in rounds]}))
"""


@dataclass
class Record:
    """What the agents saw, shared by their threads."""

    requests: list = field(default_factory=list)  # (what, status, seconds) of every call but long polls
    polls: list = field(default_factory=list)  # seconds of every long poll
    errors: list = field(default_factory=list)  # every answer that is not 2xx, every client failure
    actions: dict = field(default_factory=dict)  # accepted actions by type
    served: dict = field(default_factory=dict)  # answers by web process (its base URL)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, what: str, status: int, seconds: float, long_poll: bool, base: str = "") -> None:
        with self.lock:
            self.served[base] = self.served.get(base, 0) + 1
            if long_poll:
                self.polls.append(seconds)
            else:
                self.requests.append((what, status, seconds))

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def acted(self, kind: str) -> None:
        with self.lock:
            self.actions[kind] = self.actions.get(kind, 0) + 1


class Agent:
    """One bot-API agent, as docs/BOT_API.md describes it, on one web process."""

    def __init__(self, base: str, name: str, record: Record, seed: int, resign_after: int = 0,
                 detail_every: int = DETAIL_EVERY):
        self.base, self.name, self.record = base, name, record
        self.detail_every = detail_every
        self.resign_after = resign_after  # 0: play every game out; N: resign after N checker plays
        self.rng = random.Random(seed)
        self.key = None
        self.opener = urllib.request.build_opener()
        self.matches = []  # the ids of the matches it played

    def call(self, method: str, path: str, body=None, *, what: str, long_poll: bool = False) -> tuple:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=LONG_POLL + 40) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, payload = exc.code, exc.read()
        except OSError as exc:  # no answer at all
            self.record.note(what, 599, time.monotonic() - started, long_poll, self.base)
            self.record.error(f"{self.name}: {method} {path}: {exc!r}")
            raise
        self.record.note(what, status, time.monotonic() - started, long_poll, self.base)
        answer = json.loads(payload or b"{}")
        if not 200 <= status < 300:
            self.record.error(f"{self.name}: {method} {path} answered {status} {payload[:200]!r}")
        return status, answer

    def register(self) -> None:
        status, answer = self.call("POST", "/api/agents", {"name": self.name, "description": "a Swiss bench agent"},
                                   what="register")
        if status != 201:
            raise RuntimeError(f"{self.name} could not register: {status} {answer}")
        self.key = answer["apiKey"]

    def enter(self, tournament: int) -> None:
        status, answer = self.call("POST", f"/api/tournaments/{tournament}/entries", what="enter")
        if status != 201 or not answer["you"]["entered"]:
            raise RuntimeError(f"{self.name} could not enter: {status} {answer}")

    def run(self, tournament: int, started: threading.Event, give_up: float) -> None:
        """Play every pairing until the tournament is over."""
        started.wait()
        idle = 0
        while time.monotonic() < give_up:
            _, listed = self.call("GET", "/api/matches?status=playing", what="my matches")
            playing = [m["matchId"] for m in listed.get("matches", [])]
            if playing:
                idle = 0
                self.play(playing[0], give_up)
                continue
            if idle % self.detail_every == 0:
                _, detail = self.call("GET", f"/api/tournaments/{tournament}", what="tournament")
                if detail.get("status") in ("finished", "cancelled"):
                    return
            idle += 1
            time.sleep(IDLE_POLL)  # the next round waits for the round's last match
        raise RuntimeError(f"{self.name}: the tournament did not finish in time")

    def play(self, match: int, give_up: float) -> None:
        self.matches.append(match)
        _, view = self.call("GET", f"/api/matches/{match}", what="view")
        plays = {}  # checker plays of this agent in each game of the match
        while not view.get("matchOver"):
            if time.monotonic() > give_up:
                raise RuntimeError(f"{self.name}: match {match} still running at the time limit")
            if view.get("isYourTurn"):
                action = dict(self.choose(view, plays.get(view["gameNumber"], 0)), version=view["version"])
                if action["type"] == "move":
                    plays[view["gameNumber"]] = plays.get(view["gameNumber"], 0) + 1
                status, answer = self.call("POST", f"/api/matches/{match}/actions", action, what="action")
                if status == 200:
                    self.record.acted(action["type"])
                    view = answer
                else:  # counted as an error; read again and go on
                    view = self.call("GET", f"/api/matches/{match}", what="view")[1]
                continue
            status, after = self.call("GET", f"/api/matches/{match}?wait={LONG_POLL}&since={view['version']}",
                                      what="long poll", long_poll=True)
            if status == 200:
                view = after

    def choose(self, view: dict, plays: int) -> dict:
        offer = view.get("pendingOffer")
        if offer and offer["type"] == "double":
            return {"type": "take"}
        if offer and offer["type"] == "resign":
            return {"type": "accept"}
        if self.resign_after and plays >= self.resign_after:
            return {"type": "resign"}
        if view["phase"] == "turn":
            return {"type": "roll"}
        legal = view["legalMoves"]
        return {"type": "move", "moves": self.rng.choice(legal) if legal else []}


def percentile(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def seconds_between(a: str | None, b: str | None) -> float:
    from datetime import datetime

    if not a or not b:
        return float("nan")
    return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()


def check_standings(detail: dict, rounds: int, agents: int) -> list:
    """What is wrong with the finished Swiss (an empty list: nothing)."""
    problems = []
    if detail.get("status") != "finished" or not detail.get("winner"):
        problems.append(f"the tournament is {detail.get('status')}, winner {detail.get('winner')}")
    entrants = {e["id"] for e in detail["entrantList"] if e["status"] == "entered"}
    if len(entrants) != agents:
        problems.append(f"{len(entrants)} entrants, not {agents}")
    played = [m for m in detail["matches"] if not m["replaced"]]
    if {m["round"] for m in played} != set(range(1, rounds + 1)):
        problems.append(f"rounds played: {sorted({m['round'] for m in played})}, not 1 to {rounds}")
    seen = {}
    for m in played:
        pair = frozenset((m["white"]["id"], m["black"]["id"]))
        if pair in seen:
            problems.append(f"{sorted(pair)} met twice (rounds {seen[pair]} and {m['round']})")
        seen[pair] = m["round"]
        if m["status"] != "finished" or m["winner"] not in pair:
            problems.append(f"match {m['matchId']} is {m['status']}, winner {m['winner']}")
    byes = {s["player"]: s["byes"] for s in detail["standings"]}
    for r in range(1, rounds + 1):
        here = [p for m in played if m["round"] == r for p in (m["white"]["id"], m["black"]["id"])]
        twice = sorted({p for p in here if here.count(p) > 1})
        if twice:
            problems.append(f"round {r}: {twice} paired twice")
        if len(set(here)) != len(entrants) - len(entrants) % 2:
            problems.append(f"round {r}: {len(set(here))} players paired of {len(entrants)}")
    for p in entrants:
        count = sum(1 for m in played if p in (m["white"]["id"], m["black"]["id"]))
        if count + byes.get(p, 0) != rounds:
            problems.append(f"player {p}: {count} matches and {byes.get(p, 0)} byes in {rounds} rounds")
    if sum(byes.values()) != (rounds if len(entrants) % 2 else 0):
        problems.append(f"{sum(byes.values())} byes in all")
    if len(detail["standings"]) != len(entrants):
        problems.append(f"{len(detail['standings'])} lines of standings for {len(entrants)} entrants")
    return problems


def run(*, agents: int, rounds: int, length: int, tmp: Path, redis_url: str, timeout: float,
        seed: int = 1, resign_after: int = 0, detail_every: int = DETAIL_EVERY) -> dict:
    """The whole event; returns the figures and what went wrong (``problems``)."""
    record = Record()
    with Site(tmp, webs=2, workers=0, postgres=True, redis_url=redis_url) as site:
        created = time.monotonic()
        tournament = int(site.manage("tournament", "create", "--name", f"API Swiss {agents}", "--format", "swiss",
                                     "--length", str(length), "--rounds", str(rounds)).strip())
        field_ = [Agent(site.url(i % 2), f"swiss-{seed}-{i:03d}", record, seed * 1000 + i, resign_after, detail_every)
                  for i in range(agents)]
        for agent in field_:  # one after the other: the entry order is the draw's tie-break
            agent.register()
            agent.enter(tournament)
        entered = time.monotonic()
        started = threading.Event()
        failures = []
        give_up = time.monotonic() + timeout

        def play(agent):
            try:
                agent.run(tournament, started, give_up)
            except Exception as exc:  # noqa: BLE001 - reported, not raised from a thread
                record.error(f"{agent.name}: {exc!r}")
                failures.append(agent.name)

        threads = [threading.Thread(target=play, args=(a,), name=a.name, daemon=True) for a in field_]
        for thread in threads:
            thread.start()
        site.manage("tournament", "start", str(tournament))
        drawn = time.monotonic()
        started.set()
        for thread in threads:
            thread.join(max(1.0, give_up - time.monotonic() + 30))
        done = time.monotonic()
        figures = site.shell(ROUNDS % tournament)
        _, detail = field_[0].call("GET", f"/api/tournaments/{tournament}", what="tournament")
        broken = site.tracebacks()
    problems = check_standings(detail, rounds, agents)
    problems += [f"tracebacks in the log of {name}" for name in broken]
    problems += [f"{name} did not finish" for name in failures]
    problems += record.errors
    return {"agents": agents, "rounds": rounds, "length": length, "resign_after": resign_after,
            "record": record, "figures": figures,
            "detail": detail, "problems": problems, "setup_s": entered - created, "draw_s": drawn - entered,
            "wall_s": done - drawn, "tmp": tmp}


def report(result: dict) -> list:
    """Print the figures; return the problems (an empty list: a clean run)."""
    record, figures = result["record"], result["figures"]
    total = seconds_between(figures["started"], figures["finished"])
    print(f"{result['agents']} agents, a Swiss of {result['rounds']} rounds, {result['length']}-point matches, "
          f"two web processes on PostgreSQL + Redis"
          + (f", games resigned after {result['resign_after']} plays" if result["resign_after"] else ""))
    print(f"registration and entries {result['setup_s']:.1f} s, draw {result['draw_s']:.1f} s")
    print(f"total: {total:.1f} s from the draw to the last result ({result['wall_s']:.1f} s until every agent "
          f"had seen the end)")
    previous = figures["started"]
    for r in figures["rounds"]:
        print(f"round {r['round']}: {r['matches']} matches, {seconds_between(r['first'], r['last']):.1f} s "
              f"(its first match started {seconds_between(previous, r['first']):.1f} s after the previous "
              f"round's last result)")
        previous = r["last"]
    moves = record.actions.get("move", 0)
    print(f"matches {sum(r['matches'] for r in figures['rounds'])}, moves {moves} (checker plays sent by the "
          f"agents, passes included), turns {figures['turns']}, actions {sum(record.actions.values())}")
    times = [s for _, _, s in record.requests]
    print(f"API requests {len(times)} (long polls apart): p50 {percentile(times, 0.5) * 1000:.0f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.0f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms, "
          f"max {max(times, default=0) * 1000:.0f} ms")
    for what in ("action", "view", "my matches", "tournament"):
        some = [s for w, _, s in record.requests if w == what]
        if some:
            print(f"  {what:10} {len(some):6}: p50 {percentile(some, 0.5) * 1000:.0f} ms, "
                  f"p95 {percentile(some, 0.95) * 1000:.0f} ms, p99 {percentile(some, 0.99) * 1000:.0f} ms")
    print(f"long polls {len(record.polls)}; answers by web process: "
          + ", ".join(f"{base.rsplit(':', 1)[-1]}: {n}" for base, n in sorted(record.served.items())))
    print(f"errors {len(record.errors)}")
    standings = result["detail"].get("standings", [])
    top = ", ".join(f"{s['name']} {s['score']}" for s in standings[:3])
    print(f"standings check: {'ok' if not result['problems'] else 'FAILED'} (winner "
          f"{(result['detail'].get('winner') or {}).get('name')}; top three: {top})")
    for problem in result["problems"][:20]:
        print(f"  {problem}")
    if result["problems"]:
        print(f"(logs in {result['tmp']})")
    return result["problems"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--length", type=int, default=1, help="match length in points")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before giving up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resign-after", type=int, default=0,
                        help="an agent resigns a game after this many checker plays (0: every game played out)")
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/15")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="tournament-api-"))
    result = run(agents=args.agents, rounds=args.rounds, length=args.length, tmp=tmp, redis_url=args.redis_url,
                 timeout=args.timeout, seed=args.seed, resign_after=args.resign_after)
    return 1 if report(result) else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The soak's load (``bench/soak.py``): what a friendly site sees in an evening, kept up for as
long as the soak runs.

* **agents**: bot-API agents against a house bot, 1-point matches back to back, waiting for
  the bot with long polls (``?wait=&since=``), as GNU Backgammon's bridge does; every poll is
  recorded (when it started, when it returned, what it waited past), to measure wake-ups;
* **tables**: a member opens a match, a *guest* takes the seat through the invite link
  (a new guest account each time: guests come and go), both play over the websocket as
  ``static/js`` does, and a spectator watches; then the next match;
* **probe**: one cheap page per second on each web process, for the request latency.

Every HTTP answer is recorded (time, status, latency) in :class:`Load`.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

from bench.chaos import Agent as ChaosAgent
from tests.live import GameClient, Site, play_until_over

decide = ChaosAgent.decide  # the same simple player as the chaos run's agents


@dataclass
class Load:
    """What the clients saw."""

    http: list = field(default_factory=list)  # (wall time, status, seconds)
    polls: list = field(default_factory=list)  # (match, game number, game version, started, returned, changed)
    matches: dict = field(default_factory=lambda: {"agents": 0, "tables": 0})
    errors: list = field(default_factory=list)  # client failures (a lost match shows here)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, status: int, started: float) -> None:
        with self.lock:
            self.http.append((time.time(), status, time.monotonic() - started))


def _request(load: Load, opener, method: str, url: str, body=None, headers=None, timeout=40.0):
    """One request; ``(status, body bytes)``; 5xx and connection failures are recorded, not raised."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    started = time.monotonic()
    try:
        with opener.open(request, timeout=timeout) as response:
            payload = response.read()
            load.note(response.status, started)
            return response.status, payload
    except urllib.error.HTTPError as exc:
        load.note(exc.code, started)
        return exc.code, exc.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        load.note(599, started)  # no answer at all
        return 599, b""


class Agent:
    """A bot-API agent playing a house bot, match after match, until ``stop`` is set."""

    def __init__(self, site: Site, load: Load, name: str, level: str, web: int):
        self.site, self.load, self.name, self.level, self.web = site, load, name, level, web
        self.key = None
        self.opener = urllib.request.build_opener()

    def call(self, method: str, path: str, body=None, timeout=40.0):
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {self.key}"} if self.key else {})}
        for _ in range(100):
            status, payload = _request(self.load, self.opener, method, self.site.url(self.web) + path, body,
                                       headers, timeout)
            if status >= 500 or status == 429:
                time.sleep(0.5)
                continue
            return status, json.loads(payload or b"{}")
        raise RuntimeError(f"{self.name}: {method} {path} kept failing")

    def run(self, stop: threading.Event) -> None:
        status, data = self.call("POST", "/api/agents", {"name": self.name})
        if status != 201:
            raise RuntimeError(f"{self.name}: register answered {status} {data}")
        self.key = data["apiKey"]
        while not stop.is_set():
            self.one_match(stop)

    def one_match(self, stop: threading.Event) -> None:
        status, data = self.call("POST", "/api/matchmaking/queue",
                                 {"gameId": "backgammon", "matchLength": 1, "opponent": self.level})
        if data.get("status") != "matched":
            raise RuntimeError(f"{self.name}: not matched with the house bot: {status} {data}")
        match = data["matchId"]
        status, view = self.call("GET", f"/api/matches/{match}")
        while not view.get("matchOver"):
            if stop.is_set():
                self.call("POST", f"/api/matches/{match}/actions", {"type": "resign", "version": view["version"]})
                return
            if view["isYourTurn"]:
                kind, fields = decide(view)
                status, answer = self.call("POST", f"/api/matches/{match}/actions",
                                           {"type": kind, "version": view["version"], **fields})
                view = answer if status == 200 else self.call("GET", f"/api/matches/{match}")[1]
                continue
            started = time.time()
            status, after = self.call("GET", f"/api/matches/{match}?wait=15&since={view['version']}")
            with self.load.lock:
                self.load.polls.append((match, view["gameNumber"], view["gameVersion"], started, time.time(),
                                        after.get("version") != view["version"]))
            view = after
        with self.load.lock:
            self.load.matches["agents"] += 1


# -- a member's table, a guest opponent and a spectator, over websockets ---------------------------------


def guest_session(site: Site, load: Load, web: int, invite: str) -> tuple:
    """Take the seat of ``invite`` as a new guest, as a browser does ("Play as a guest"):
    ``(session key, game id)``."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = f"{site.url(web)}/join/{invite}/"
    status, page = _request(load, opener, "GET", url)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or token is None:
        raise RuntimeError(f"the invite page answered {status}")
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1).decode(), "guest": "1"}).encode()
    request = urllib.request.Request(url, data=form, method="POST", headers={
        "Content-Type": "application/x-www-form-urlencoded", "Referer": url, "Origin": site.url(web)})
    started = time.monotonic()
    try:
        with opener.open(request, timeout=40) as response:  # redirected to the game's page
            load.note(response.status, started)
            game = re.search(r"/games/(\d+)/", response.geturl())
    except urllib.error.HTTPError as exc:
        load.note(exc.code, started)
        raise RuntimeError(f"joining as a guest answered {exc.code}") from exc
    session = next((c.value for c in jar if c.name == "sessionid"), None)
    if game is None or session is None:
        raise RuntimeError(f"joining as a guest did not lead to a game ({response.geturl()})")
    return session, int(game.group(1))


async def watch(client: GameClient, stop: asyncio.Event) -> None:
    while not client.match_over and not stop.is_set():
        client.changed.clear()
        try:
            await asyncio.wait_for(client.changed.wait(), 1.0)
        except asyncio.TimeoutError:
            pass


async def table(site: Site, load: Load, matches: list, host: str, spectator: str, web: int,
                stop: threading.Event) -> None:
    """Matches from ``matches`` (prepared: id, first game, invite), one after another, until ``stop``."""
    loop = asyncio.get_running_loop()
    bases = [site.url(i, "ws") for i in range(len(site.webs))]
    while matches and not stop.is_set():
        m = matches.pop()
        guest, game = await loop.run_in_executor(None, guest_session, site, load, web, m["invite"])
        clients = [GameClient(bases, game, cookie, site.url(web), color=color)
                   for cookie, color in ((host, "white"), (guest, "black"), (spectator, None))]
        done = asyncio.Event()
        for client in clients:
            await client.connect()
        runners = [asyncio.create_task(c.run(done)) for c in clients]
        players = [play_until_over(c, done, timeout=600, think=(0.05, 0.3)) for c in clients[:2]]
        try:
            await asyncio.gather(*players, watch(clients[2], done))
        finally:
            done.set()
            for c in clients:
                if c.ws is not None:
                    await c.ws.close()
            await asyncio.gather(*runners, return_exceptions=True)
        if clients[0].match_over:
            with load.lock:
                load.matches["tables"] += 1


def probe(site: Site, load: Load, stop: threading.Event, every: float = 1.0) -> None:
    """A cheap page on every web process, once a second each: the request latency."""
    opener = urllib.request.build_opener()
    while not stop.wait(every):
        for i in range(len(site.webs)):
            _request(load, opener, "GET", site.url(i) + "/api/bots", timeout=10)

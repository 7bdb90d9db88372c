"""Two Daphne processes sharing one database and one Redis channel layer: a move sent to a
socket on process 1 reaches the opponent and a spectator whose sockets are on process 2.

This is the proof that the site scales past one process (docs/DEPLOY.md): groups live in
Redis, so a broadcast from any process reaches every socket of the game.

Real servers, real sockets: the database is a SQLite file in tmp_path (both processes open
it), migrated and filled through ``manage.py``; users log in over HTTP like a browser; the
sockets are opened with the ``websockets`` client with the session cookie and an Origin
header. Nothing waits a fixed time: readiness is a bounded poll of the port, and every
receive has a timeout.
"""

import asyncio
import threading
import http.cookiejar
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.live import flush_redis, tail, wait_for_port
from tests.support import free_port, require_redis

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).parent / "daphne"
RECEIVE_TIMEOUT = 30.0  # a bound for a loaded machine, not a timing assertion

SETUP = """
import json
from games import services
from games.dice import ScriptedDice
from games.models import Game
alice = services.player_register(username="alice", password="correct horse 1")
bob = services.player_register(username="bob", password="correct horse 2")
carol = services.player_register(username="carol", password="correct horse 3")
match = services.match_create(creator=alice, length=3)
with services.use_dice(ScriptedDice([(3,), (1,)])):
    services.match_join(player=bob, match_id=match.pk)
game = Game.objects.get(match=match)
state = game.game_state()
print("SETUP " + json.dumps({"match": match.pk, "game": game.pk, "version": game.version,
                             "phase": state.phase, "actor": state.actor, "dice": sorted(state.dice)}))
"""


def login(port: int, username: str, password: str) -> str:
    """Log in through the form like a browser; return the session cookie."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}"
    with opener.open(f"{base}/accounts/login/", timeout=10) as response:
        page = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"username": username, "password": password,
                                   "csrfmiddlewaretoken": token, "next": "/"}).encode()
    request = urllib.request.Request(f"{base}/accounts/login/", data=form,
                                     headers={"Referer": f"{base}/accounts/login/"})
    with opener.open(request, timeout=10) as response:
        assert response.status == 200
    cookies = {c.name: c.value for c in jar}
    assert "sessionid" in cookies, f"{username} could not log in on port {port}"
    return cookies["sessionid"]


@pytest.fixture
def servers(tmp_path):
    """Two Daphne processes on one SQLite file and one Redis database; yields their ports
    and the ids of a started match."""
    redis_url = require_redis()
    flush_redis(redis_url)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "backgammon_site.settings",
        "DJANGO_DEBUG": "1",
        "REDIS_URL": redis_url,
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "GAMES_SWEEP_INTERVAL": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DATABASE_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=180)
    out = subprocess.run([*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    ids = json.loads(next(line for line in out.splitlines() if line.startswith("SETUP "))[6:])

    procs = []
    try:
        ports = []
        for n in (1, 2):
            port = free_port()
            log = tmp_path / f"daphne{n}.log"
            handle = open(log, "wb")
            proc = subprocess.Popen(
                [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "backgammon_site.asgi:application"],
                cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
            handle.close()
            procs.append((proc, log))
            ports.append(port)
        for (proc, log), port in zip(procs, ports):
            wait_for_port(port, proc, log)
        yield {"ports": ports, "logs": [log for _, log in procs], **ids}
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=15)
        flush_redis(redis_url)


async def receive_until(ws, predicate, what: str, log: Path):
    """Messages until ``predicate(message)`` (bounded by time and count)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RECEIVE_TIMEOUT
    seen = []
    for _ in range(1000):
        left = deadline - loop.time()
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=max(left, 0.01))
        except asyncio.TimeoutError:
            raise AssertionError(f"no {what} within {RECEIVE_TIMEOUT} s; got {seen}\n{tail(log)}") from None
        message = json.loads(raw)
        seen.append(message)
        if predicate(message):
            return message, seen
    raise AssertionError(f"no {what} in 1000 messages")


def test_a_move_on_one_process_reaches_sockets_on_another(servers):
    from websockets.asyncio.client import connect

    port1, port2 = servers["ports"]
    log1, log2 = servers["logs"]
    game_id, version = servers["game"], servers["version"]
    assert servers["actor"] == "white" and servers["phase"] == "move" and servers["dice"] == [1, 3]

    # Each logs in on the process its socket will use (the sessions live in the shared database).
    cookies = {"alice": login(port1, "alice", "correct horse 1"),
               "bob": login(port2, "bob", "correct horse 2"),
               "carol": login(port2, "carol", "correct horse 3")}

    async def scenario():
        def open_ws(port, user):
            return connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/",
                           additional_headers={"Cookie": f"sessionid={cookies[user]}",
                                               "Origin": f"http://127.0.0.1:{port}"},
                           open_timeout=10, close_timeout=5)

        async with open_ws(port1, "alice") as white, open_ws(port2, "bob") as black, \
                open_ws(port2, "carol") as watcher:
            # The snapshot comes after the socket joined its groups: from here on, it hears broadcasts.
            for ws, log in ((white, log1), (black, log2), (watcher, log2)):
                snap, _ = await receive_until(ws, lambda m: m["t"] == "snapshot", "snapshot", log)
                assert snap["v"] == version
            assert snap["d"]["you"] is None  # carol watches

            # Presence crosses processes too: Alice (process 1) sees Bob (process 2) connected.
            await receive_until(white, lambda m: m["t"] == "presence" and m["d"]["black"]["connected"]
                                and m["d"]["spectators"] == 1, "presence of bob and carol", log1)

            play = {"moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}]}
            await white.send(json.dumps({"t": "move", "d": play, "v": version}))
            mine, seen = await receive_until(white, lambda m: m["t"] in ("move", "error"), "move echo", log1)
            assert mine["t"] == "move", seen
            for ws, who in ((black, "bob"), (watcher, "carol")):
                event, seen = await receive_until(ws, lambda m: m.get("game") == game_id and m["t"] != "snapshot",
                                                  f"the move on {who}'s socket (process 2)", log2)
                assert event["t"] == "move" and event["v"] == version + 1, seen
                assert event["game"] == game_id and event["d"]["color"] == "white"
                assert event["d"]["notation"] == "8/5 6/5" and event["d"]["dice"] == mine["d"]["dice"]
                assert not any(m["t"] == "error" for m in seen), seen
            assert "legalMoves" not in event  # the spectator never gets the legal plays

            # And back: Bob rolls on process 2, Alice sees it on process 1.
            await black.send(json.dumps({"t": "roll", "d": {}, "v": version + 1}))
            rolled, seen = await receive_until(white, lambda m: m.get("game") == game_id and m["v"] == version + 2,
                                               "Bob's roll on Alice's socket (process 1)", log1)
            assert rolled["t"] == "roll" and rolled["d"]["color"] == "black" and not rolled["d"]["auto"], seen

    # In a thread of its own: a session-wide Playwright (browser tests) keeps an event loop
    # running in the main thread, where asyncio.run() would refuse to start.
    outcome = {}

    def run():
        try:
            asyncio.run(asyncio.wait_for(scenario(), timeout=60))
        except BaseException as exc:  # re-raised below, in the test's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=90)
    assert not worker.is_alive(), "the two-process scenario did not finish"
    if "error" in outcome:
        raise outcome["error"]
    for log in (log1, log2):
        text = log.read_text(errors="replace")
        assert "Traceback" not in text and "Exception inside application" not in text, tail(log)

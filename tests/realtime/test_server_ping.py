"""The idle ping of issue 32, on a real Daphne process (``backgammon_site.serve``): the server
pings a silent socket with the game and version it has sent, the protocol layer answers a
ping that misses nothing, a client the server's ping shows behind catches up with its own
ping, the old client (a ping after every 3 s of silence) works as before, and a client whose
server goes silent takes the socket for dead and reconnects. Nothing sleeps a fixed time to
assert: every wait polls with a deadline."""

import asyncio
import os
import signal
import time

import pytest

from tests.live import GameClient, Site

pytestmark = pytest.mark.slow

MATCH = """
import json
from games import services
from games.dice import ScriptedDice
from games.models import Game
white = services.player_register(username="wendy", password=None)
black = services.player_register(username="bert", password=None)
match = services.match_create(creator=white, length=0, cube=False)
with services.use_dice(ScriptedDice([(3,), (1,)])):
    services.match_join(player=black, match_id=match.pk)
print("RESULT " + json.dumps({"game": Game.objects.get(match=match).pk}))
"""


async def until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        await asyncio.sleep(0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with Site(tmp_path_factory.mktemp("ping"), webs=1, env={"GAMES_SERVER_PING": "1"}) as site:
        ids = site.shell(MATCH)
        site.game = ids["game"]
        site.cookies = site.sessions(["wendy", "bert"])
        yield site
        assert site.tracebacks() == [], site.logs()


async def running(site, user, color, **options):
    client = GameClient(site.url(0, "ws"), site.game, site.cookies[user], site.url(0), color=color, **options)
    await client.connect()
    stop = asyncio.Event()
    task = asyncio.create_task(client.run(stop))
    await until(lambda: client.version is not None, 20, "the first snapshot")
    return client, stop, task


async def stopped(client, stop, task):
    stop.set()
    if client.ws is not None:
        await client.ws.close()
    await asyncio.wait_for(task, 10)


async def move(client):
    """The player on roll (the client ``client``) plays; returns the version it leads to."""
    await until(lambda: client.my_turn() and client.legal is not None, 20, "our turn")
    before = client.version
    await client.act("move", {"moves": client.legal[0]})
    await until(lambda: client.version > before + 1, 20, "the move and the server's roll")
    return client.version


def test_the_new_client_never_pings_while_the_servers_pings_say_it_misses_nothing(site):
    async def scenario():
        client, stop, task = await running(site, "wendy", "white")
        await until(lambda: client.server_pings >= 3, 30, "three server pings")
        assert client.pings == 0  # every one came before the client's own ping was due
        await stopped(client, stop, task)
        assert client.errors == [] and client.dead == 0

    asyncio.run(scenario())


def test_a_frame_the_client_lost_is_caught_by_the_servers_ping_and_the_clients_answer(site):
    async def scenario():
        white, ws, wt = await running(site, "wendy", "white")
        black, bs, bt = await running(site, "bert", "black")
        mover = white if white.my_turn() else black
        version = await move(mover)
        other = black if mover is white else white
        await until(lambda: other.version == version, 20, "the other player's copy")
        # The other client loses the last frame (as if it had reached a socket it dropped).
        other.version -= 1
        received = len(other.received)
        await until(lambda: other.version == version, 20, "the catch-up")
        assert other.pings >= 1  # its ping (with the version held) asked for it
        assert other.received[received][1]["v"] == version  # the lost frame, sent again
        for client, stop, task in ((white, ws, wt), (black, bs, bt)):
            await stopped(client, stop, task)
            assert client.errors == []

    asyncio.run(scenario())


def test_the_old_client_pings_every_three_seconds_and_catches_up_as_before(site):
    async def scenario():
        # Scaled as in production: the old client's 3 s are under the server's 5 s (here 1 s).
        client, stop, task = await running(site, "wendy", "white", old=True, ping_every=0.6)
        await until(lambda: client.pings >= 2, 30, "two pings")
        held = client.version
        client.version -= 1  # a lost frame: the old client's ping asks for it
        await until(lambda: client.version == held, 20, "the catch-up")
        await stopped(client, stop, task)
        assert client.errors == [] and client.dead == 0

    asyncio.run(scenario())


def test_a_socket_whose_server_stops_answering_is_taken_for_dead_and_replaced(site):
    async def scenario():
        client, stop, task = await running(site, "bert", "black", ping_every=2.5, dead_after=4.0)
        pid = site.webs[0].popen.pid
        os.kill(pid, signal.SIGSTOP)  # the server hangs: its socket stays open, silent
        try:
            await until(lambda: client.dead == 1, 20, "the dead socket noticed")
        finally:
            os.kill(pid, signal.SIGCONT)
        heard = client.server_pings
        await until(lambda: client.reconnects >= 1 and client.server_pings > heard, 30,
                    "a new socket, pinged by the server")
        held = client.version
        await stopped(client, stop, task)
        assert held is not None and client.errors == []

    asyncio.run(scenario())

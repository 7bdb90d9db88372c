"""Helpers for websocket tests: real consumers through the real ASGI stack
(origin check, session auth, routing) with channels' WebsocketCommunicator."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from backgammon_site.asgi import application
from games import services
from games.models import Game


@database_sync_to_async
def session_cookie(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(getattr(user, "user", user))  # a Player or a User
    return client.cookies["sessionid"].value


class Socket:
    """A websocket client that keeps everything it received."""

    def __init__(self, comm):
        self.comm = comm
        self.received = []

    async def send(self, t, d=None, v=None):
        message = {"t": t, "d": d or {}}
        if v is not None:
            message["v"] = v
        await self.comm.send_json_to(message)

    async def next(self, timeout=5):
        message = await self.comm.receive_json_from(timeout=timeout)
        self.received.append(message)
        return message

    async def until(self, predicate, timeout=5):
        """Receive until ``predicate(message)``; return that message."""
        while True:
            message = await self.next(timeout)
            if predicate(message):
                return message

    async def until_version(self, version, game=None):
        """The event with ``version`` (already received, or the next ones)."""

        def match(m):
            return m.get("v") == version and m["t"] != "snapshot" and (game is None or m.get("game") == game)

        for m in self.received:
            if match(m):
                return m
        return await self.until(match)

    async def drain(self):
        """Everything already waiting (nothing more arrives within a short poll)."""
        out = []
        while not await self.comm.receive_nothing(timeout=0.05):
            out.append(await self.next())
        return out

    async def versioned_within(self, timeout=0.2):
        """The versioned events that arrive within ``timeout`` (a presence notice, which
        carries no version, may come at any time and does not count)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        out = []
        while (left := end - loop.time()) > 0:
            if await self.comm.receive_nothing(timeout=left):
                break
            message = await self.next()
            if message.get("v") is not None:
                out.append(message)
        return out

    def events(self, game=None):
        return [(m["v"], m["t"]) for m in self.received
                if m.get("game") is not None and m["t"] != "snapshot" and (game is None or m["game"] == game)]

    async def close(self):
        await self.comm.disconnect()


async def open_socket(path, user=None, origin="http://testserver"):
    """Connect like a browser: Origin header and the session cookie of ``user``."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", f"sessionid={await session_cookie(user)}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect(timeout=5)
    return Socket(comm), connected


@database_sync_to_async
def db(fn, *args, **kwargs):
    return fn(*args, **kwargs)


@database_sync_to_async
def current(match_id):
    game = Game.objects.filter(match_id=match_id).order_by("-number").first()
    return game, game.game_state()


@pytest.fixture
def people(transactional_db):
    alice = services.player_register(username="alice", password="correct horse 1")
    bob = services.player_register(username="bob", password="correct horse 2")
    carol = services.player_register(username="carol", password="correct horse 3")
    return alice, bob, carol


async def wait_for(predicate, timeout=5):
    """Poll a database condition without a fixed sleep (returns as soon as it holds)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if await db(predicate):
            return True
        await asyncio.sleep(0.01)
    return False

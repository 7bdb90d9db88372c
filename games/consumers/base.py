"""The base of the site's sockets (``SocketConsumer``), its limits and its flood counter.

Every socket is thin: parse with limits, look the action up (``games.engine.actions``),
call a service, forward what the services published. Every socket is at least once: it
numbers what it sends, resends from the database what the channel layer lost
(``games.realtime.delivery``), and answers a client's idle ping with what it is missing.
The protocol is docs/PROTOCOL.md.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from http.cookies import CookieError, SimpleCookie
from types import SimpleNamespace
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext

from games import conf
from games.db.calls import db
from games.engine.errors import EngineError
from games.errors import ServiceError
from games.events import dumps
from games.jsonsafe import BadInput, parse
from games.models import Player
from games.realtime import delivery
from games.realtime.bridge import ANYONE
from games.realtime.wire import wire_of

logger = logging.getLogger(__name__)

MAX_MESSAGE = 4096  # bytes of one client message
MAX_REPLAY = 500  # more missing events than this: send a snapshot instead
FLOODED_CLOSE = 4008  # far over the message rate: closed (1008 is not a code a server may send)
SUSPENDED_CLOSE = 4003  # the player was suspended: the socket is closed by the server


class Flood:
    """Sliding-window counter: ``hit()`` is False once more than ``limit`` hits fall in ``window`` s."""

    def __init__(self, limit: int, window: float):
        self.limit, self.window, self.hits = limit, window, deque()

    def hit(self) -> bool:
        now = time.monotonic()
        self.hits.append(now)
        while self.hits and now - self.hits[0] > self.window:
            self.hits.popleft()
        return len(self.hits) <= self.limit


def since_of(scope) -> int | None:
    """The ``?v=`` a socket connected with (the last version its client holds), if any."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        return int(query["v"][0]) if "v" in query else None
    except (ValueError, OverflowError):
        return None


def socket_language(scope) -> str:
    """The language a socket answers in, as a page would (docs/TRANSLATING.md): the signed-in
    player's ``language`` setting, else the language cookie, else the browser's
    Accept-Language, else the site's default. Synchronous (it reads the player's settings)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        chosen = (Player.objects.filter(user_id=user.pk).values_list("settings", flat=True).first() or {}).get("language")
        if chosen in dict(settings.LANGUAGES):
            return chosen
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except CookieError:
        cookies = SimpleCookie()
    asked = SimpleNamespace(COOKIES={k: m.value for k, m in cookies.items()},
                            META={"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")})
    return translation.get_language_from_request(asked)


class SocketConsumer(AsyncWebsocketConsumer):
    """The base of every socket of the site (a match, a chouette, the lobby): size and depth
    limits, JSON parsing, flood control, refusals that name the action (``re``), service
    calls off the event loop (``games.db.calls``), and the idle ping of a versioned stream.

    A subclass implements :meth:`handle` (a client's message), :meth:`catch_up` (send what
    the client misses after a version) and says its stream's version in ``sent``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = conf.value("GAMES_WS_FLOOD_LIMIT")
        self.flood = Flood(limit, 2.0)  # over it: the message is refused with ``rate_limited``
        self.hard_flood = Flood(limit * 3, 2.0)  # far over it: the socket is closed with 4008
        self.language = None  # read at the first message (socket_language)

    async def dispatch(self, message):
        """A database that went away (restarted, connections terminated) costs one message,
        not the socket: the client is told to try again, and its idle ping or the server's
        delivery check sends it whatever it then misses.

        The handler is called directly: Channels' own ``dispatch`` first hops to the database
        thread to close stale connections, for every message of every socket, events fanned
        out included; every database call here goes through ``games.db.calls.db``, which
        does that itself where it hops (issue 16: the hop was a fifth of a move's cost)."""
        handler = getattr(self, get_handler_name(message), None)
        if message.get("type") == "websocket.disconnect":
            self.detach_wire()
        if handler is None:
            raise ValueError(f"No handler for message type {message.get('type')!r}")
        try:
            await handler(message)
        except DatabaseError as exc:
            if message.get("type") in ("websocket.connect", "websocket.disconnect"):
                delivery.unwatch(self)  # the socket dies: the heartbeat must not keep its row alive
                raise
            # A client's message is answered in ``receive``; this is a layer message (an
            # event to forward, the delivery check): its client catches up by itself.
            logger.warning("socket %s: database error on %s (%s)", self.channel_name, message.get("type"),
                           type(exc).__name__)
        except BaseException:
            self.detach_wire()
            delivery.unwatch(self)  # the consumer dies: the heartbeat must not keep its presence row alive
            raise

    wire = None  # the protocol layer's line, once attached (``games.realtime.wire``)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Sending to a client that has just gone is not an error: its disconnect follows.
        Once attached to the wire, a text frame goes straight to the protocol layer."""
        wire = self.wire
        if wire is not None and text_data is not None and not close:
            wire.send(text_data)
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            logger.debug("socket %s: the client has gone", self.channel_name)

    async def send_frames(self, texts: list) -> None:
        """Text frames in order; once attached to the wire, in one write to the socket (a
        batch's two or three frames cost one system call, not one each)."""
        wire = self.wire
        if wire is not None and len(texts) > 1:
            wire.send_many(texts)
        else:
            for text in texts:
                await self.send(text_data=text)
        texts.clear()

    async def send_json(self, data: dict) -> None:
        await self.send(text_data=dumps(data))

    async def error(self, code: str, message: str, **extra) -> None:
        await self.send_json({"t": "error", "v": None, "d": {"code": code, "message": message, **extra}})

    async def receive(self, text_data=None, bytes_data=None):
        """A client's message is answered in the socket's language (its refusals' messages)."""
        if self.language is None:
            self.language = await db(socket_language, self.scope)
        with translation.override(self.language):
            await self.answer(text_data)

    async def answer(self, text_data) -> None:
        """Every error that answers an action names it (``re``, docs/PROTOCOL.md); only a
        message that is not an action at all (not JSON, no type) is answered without."""
        if not self.hard_flood.hit():
            await self.close(code=FLOODED_CLOSE)
            return
        if text_data is None:
            await self.error("bad_message", gettext("Send JSON text frames."))
            return
        try:
            message = parse(text_data, max_bytes=MAX_MESSAGE)
        except BadInput as exc:
            await self.error(exc.code, exc.message)
            return
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            await self.error("bad_message", gettext("A message is an object with a type: {\"t\": ..., \"d\": {...}, \"v\": N}."))
            return
        kind = message["t"][:30]
        if not self.flood.hit():
            await self.error("rate_limited", gettext("Too many messages: slow down and try again."), re=kind)
            return
        data = message.get("d", {})
        if data is None:
            data = {}
        if not isinstance(data, dict):
            await self.error("bad_message", gettext("'d' must be an object."), re=kind)
            return
        try:
            await self.handle(kind, data, message.get("v"), message.get("game"))
        except DatabaseError as exc:  # the database went away (restarted, connections terminated)
            logger.warning("socket %s: database error on %r (%s)", self.channel_name, kind, type(exc).__name__)
            await self.error("unavailable", gettext("The server could not do that just now: try again."), re=kind)

    async def handle(self, kind: str, data: dict, version, game) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def service_kwargs(self) -> dict:
        """What every service call of this socket names (its match, its chouette)."""
        return {}

    def _run(self, service, kwargs):
        """Synchronous (``games.db.calls.db``). "fresh" is the socket's player read now (a
        suspension takes effect at once)."""
        if kwargs.get("player") == "fresh":
            kwargs["player"] = Player.objects.get(pk=self.player_id)
        return service(**{**self.service_kwargs(), **kwargs})

    async def refused(self) -> None:
        """After a refused action: the client gets the state it must act on."""
        await self.catch_up(None)

    async def catch_up(self, since, with_chat: bool = False) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    async def answer_ping(self, version, held: int) -> None:
        """An idle ping carries the version the client holds: answer with ours, and with
        what it is missing (docs/PROTOCOL.md, "Delivery")."""
        await self.send_json({"t": "pong", "v": None, "d": {"v": held}})
        if type(version) is int and version < held:
            await self.catch_up(version)

    # -- the protocol layer's pings (``games.realtime.wire``) ----------------------------------------
    def attach_wire(self) -> None:
        """From now on the protocol layer answers this socket's idle pings that need no
        catch-up, and pings its client when it has been silent (``GAMES_SERVER_PING``)."""
        wire = wire_of(self.scope)
        if wire is not None:
            wire.every = float(conf.value("GAMES_SERVER_PING"))
            wire.owner = self
            if wire.send is not None:
                self.wire = wire

    def detach_wire(self) -> None:
        self.wire = None
        wire = wire_of(self.scope)
        if wire is not None and wire.owner is self:
            wire.owner = None

    _pong = (object(), "")  # (what it was made for, the pong's text): an idle socket's pings reuse it

    def pong_text(self) -> str:
        """The ``pong``: what this socket has sent its client (made again only once that
        changed: the server pings an idle socket every few seconds)."""
        key = self.sent
        if self._pong[0] != key:
            self._pong = (key, dumps({"t": "pong", "v": None, "d": {"v": key}}))
        return self._pong[1]

    def behind(self, version, game) -> bool:
        """Whether an idle ping carrying ``version`` (and ``game``) shows a client missing something."""
        return type(version) is int and version < self.sent

    def quick_pong(self, version, game) -> str | None:
        """The protocol layer's answer to an idle ping: the pong, unless the client is behind
        or over the message rate (then the consumer answers, as for any other message; the
        ping then counts twice against the rate)."""
        if self.behind(version, game) or not (self.hard_flood.hit() and self.flood.hit()):
            return None
        return self.pong_text()

    async def forward(self, message: dict, viewer: str) -> None:
        """A committed batch of a stream numbered without restarts (a chouette): send the
        frames of ``viewer`` in order; a gap means something was lost, so read the rest."""
        frames = message["views"].get(viewer) or message["views"][ANYONE]
        out = []  # written together, before anything that waits (nothing reads ``sent`` between)
        for (_game, version, _kind), frame in zip(message["index"], frames):
            if version <= self.sent:
                continue
            if version != self.sent + 1:
                await self.send_frames(out)
                await self.catch_up(self.sent)
                continue
            out.append(frame)
            self.sent = version
        await self.send_frames(out)

    async def delivery_check(self, message):
        """The process's delivery check saw the database ahead of this socket."""
        await self.catch_up(self.sent)

    async def call(self, kind, service, *, snapshot=False, limit=None, **kwargs):
        """Call ``service`` (``games.db.calls.db``); a refusal is an ``error`` frame (and, with
        ``snapshot``, the state to act on: :meth:`refused`)."""
        if limit is not None and not limit.hit():
            await self.error("rate_limited", gettext("Slow down: too many messages."), re=kind)
            return
        try:
            await db(self._run, service, kwargs)
        except (ServiceError, EngineError) as exc:
            await self.error(exc.code, exc.message, re=kind)
            if snapshot:
                await self.refused()

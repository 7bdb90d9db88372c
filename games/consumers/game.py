"""Websocket consumers: thin. Parse with limits, look the action up, call a service,
forward what the services published.

``GameConsumer`` serves ``/ws/games/<id>/?v=<last version seen>`` to the two players and
any number of spectators, following the match from game to game; ``LobbyConsumer``
serves ``/ws/lobby/``. Both are at least once: they number what they send, resend from
the database what the channel layer lost (``games.realtime.delivery``), and answer a client's idle
ping with what it is missing. The protocol is docs/PROTOCOL.md.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError

from games.realtime import delivery
from games.selectors import games as selectors
from games import services
from games.engine.actions import MissingField, UnknownAction, lookup
from games.db.calls import db
from games.engine.errors import EngineError
from games.errors import ServiceError
from games.events import LOBBY_GROUP, dumps, match_group
from games.jsonsafe import BadInput, parse
from games.models import ChatMessage, Game, Player
from games.realtime.bridge import ANYONE
from games.selectors.lobby import lobby_version
from games.selectors.visibility import can_view_match
from games import conf
from games.selectors import social
from games.selectors.players import player_of

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


class _Base(AsyncWebsocketConsumer):
    """Size and depth limits, JSON parsing and flood control shared by both sockets."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = conf.value("GAMES_WS_FLOOD_LIMIT")
        self.flood = Flood(limit, 2.0)  # over it: the message is refused with ``rate_limited``
        self.hard_flood = Flood(limit * 3, 2.0)  # far over it: the socket is closed with 4008

    async def dispatch(self, message):
        """A database that went away (restarted, connections terminated) costs one message,
        not the socket: the client is told to try again, and its idle ping or the server's
        delivery check sends it whatever it then misses.

        The handler is called directly: Channels' own ``dispatch`` first hops to the database
        thread to close stale connections, for every message of every socket, events fanned
        out included; every database call here goes through ``games.db.calls.db``, which
        does that itself where it hops (issue 16: the hop was a fifth of a move's cost)."""
        handler = getattr(self, get_handler_name(message), None)
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
            delivery.unwatch(self)  # the consumer dies: the heartbeat must not keep its presence row alive
            raise

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Sending to a client that has just gone is not an error: its disconnect follows."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            logger.debug("socket %s: the client has gone", self.channel_name)

    async def send_json(self, data: dict) -> None:
        await self.send(text_data=dumps(data))

    async def error(self, code: str, message: str, **extra) -> None:
        await self.send_json({"t": "error", "v": None, "d": {"code": code, "message": message, **extra}})

    async def receive(self, text_data=None, bytes_data=None):
        """Every error that answers an action names it (``re``, docs/PROTOCOL.md); only a
        message that is not an action at all (not JSON, no type) is answered without."""
        if not self.hard_flood.hit():
            await self.close(code=FLOODED_CLOSE)
            return
        if text_data is None:
            await self.error("bad_message", "Send JSON text frames.")
            return
        try:
            message = parse(text_data, max_bytes=MAX_MESSAGE)
        except BadInput as exc:
            await self.error(exc.code, exc.message)
            return
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            await self.error("bad_message", 'A message is an object with a type: {"t": ..., "d": {...}, "v": N}.')
            return
        kind = message["t"][:30]
        if not self.flood.hit():
            await self.error("rate_limited", "Too many messages: slow down and try again.", re=kind)
            return
        data = message.get("d", {})
        if data is None:
            data = {}
        if not isinstance(data, dict):
            await self.error("bad_message", "'d' must be an object.", re=kind)
            return
        try:
            await self.handle(kind, data, message.get("v"), message.get("game"))
        except DatabaseError as exc:  # the database went away (restarted, connections terminated)
            logger.warning("socket %s: database error on %r (%s)", self.channel_name, kind, type(exc).__name__)
            await self.error("unavailable", "The server could not do that just now: try again.", re=kind)

    async def handle(self, kind: str, data: dict, version, game) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _run(self, service, kwargs):  # pragma: no cover - overridden
        raise NotImplementedError

    async def refused(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    async def _call(self, kind, service, *, snapshot=False, limit=None, **kwargs):
        """Call ``service`` (``games.db.calls.db``); a refusal is an ``error`` frame (and, with
        ``snapshot``, the state to act on: :meth:`refused`)."""
        if limit is not None and not limit.hit():
            await self.error("rate_limited", "Slow down: too many messages.", re=kind)
            return
        try:
            await db(self._run, service, kwargs)
        except (ServiceError, EngineError) as exc:
            await self.error(exc.code, exc.message, re=kind)
            if snapshot:
                await self.refused()


class GameConsumer(_Base):
    """One socket on one match, following it from game to game."""

    game_id = None
    sent = 0  # the version of ``game_id`` this socket has sent its client

    async def connect(self):
        self.chat_flood = Flood(conf.value("GAMES_CHAT_LIMIT"), 10.0)
        since = since_of(self.scope)
        seat = await db(self._seat, int(self.scope["url_route"]["kwargs"]["game_id"]))
        if seat is None:
            await self.close()  # unknown game or not allowed to watch: the handshake is refused
            return
        self.match_id, self.player_id, self.color, asked_game = seat
        self.role = self.color or "spectator"
        await self.accept()
        # Join the group first, then read: nothing published in between is lost.
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        self.game_id, self.sent = asked_game, 0
        await self._catch_up(since, with_chat=True)
        delivery.watch(self)
        try:
            await db(services.presence_join,
                     match_id=self.match_id, channel_name=self.channel_name, player=self.player_id, role=self.role)
        except BaseException:  # the socket fails to open: nothing may keep its presence row fresh
            delivery.unwatch(self)
            raise

    def _seat(self, game_id):
        game = Game.objects.select_related("match").filter(pk=game_id).first()
        if game is None:
            return None
        match = game.match
        player = player_of(self.scope.get("user"))
        if not can_view_match(self.scope.get("user"), match):
            return None
        return match.pk, (player.pk if player else None), selectors.viewer_color(match, player), game.pk

    async def disconnect(self, code):
        delivery.unwatch(self)
        if getattr(self, "match_id", None) is None:
            return
        await self.channel_layer.group_discard(match_group(self.match_id), self.channel_name)
        await db(services.presence_leave, channel_name=self.channel_name)

    # -- sending what the client is missing ------------------------------------------------------
    def _missing(self, game_id, since, with_chat) -> tuple:
        """Synchronous (``games.db.calls.db``): the frames (text) ``game_id`` is missing after
        ``since`` (a snapshot when too many, or none known), continuing into the match's newer
        games."""
        game = Game.objects.select_related("match", "match__white", "match__black").get(pk=game_id)
        out = []
        newest = selectors.current_game(game.match)
        if newest is not None and newest.pk != game.pk:
            newest.match = game.match
        if since is None or not 0 <= since <= game.version or game.version - since > MAX_REPLAY:
            game = newest or game  # a fresh start: the match's current game
            out.append(dumps(self._snapshot(game)))
        else:
            out.extend(selectors.catch_up(game, since, self.color))
            if newest is not None and newest.pk != game.pk:
                game = newest
                if game.version > MAX_REPLAY:
                    out.append(dumps(self._snapshot(game)))
                else:
                    out.extend(selectors.catch_up(game, 0, self.color))
        if with_chat:
            room = ChatMessage.PLAYERS if self.color else ChatMessage.SPECTATORS
            out.append(dumps({"t": "chat_history", "v": None,
                              "d": {"room": room, "messages": social.chat_recent(game.match, room)}}))
        return game.pk, game.version, game.status == Game.FINISHED, out

    def _snapshot(self, game) -> dict:
        return {"t": "snapshot", "v": game.version, "d": selectors.game_snapshot(game, self.color)}

    async def _catch_up(self, since, with_chat=False):
        game_id, version, over, frames = await db(self._missing, self.game_id, since, with_chat)
        for text in frames:
            await self.send(text_data=text)
        self.game_id, self.sent, self.over = game_id, version, over

    async def _send_snapshot(self):
        def read():
            game = Game.objects.select_related("match", "match__white", "match__black").get(pk=self.game_id)
            return game.version, self._snapshot(game)

        version, frame = await db(read)
        await self.send_json(frame)
        self.sent = version

    # -- from the channel layer ---------------------------------------------------------------------
    async def match_events(self, message):
        """A committed batch: forward our frames in order; a gap or an unknown game means
        something was lost, so read the rest from the database."""
        frames = message["views"].get(self.color) or message["views"][ANYONE]
        for (game, version, kind), frame in zip(message["index"], frames):
            if game != self.game_id:
                if game > self.game_id and kind == "game_start" and version == 1 and self.over:
                    self.game_id, self.sent = game, 0  # the match's next game
                elif game < self.game_id:
                    continue  # an older game's late event (rematch offers): already read
                else:
                    await self._catch_up(self.sent)
                    continue
            if version <= self.sent:
                continue  # sent already (a catch-up got there first)
            if version != self.sent + 1:
                await self._catch_up(self.sent)
                continue
            await self.send(text_data=frame)
            self.sent = version
            self.over = kind == "game_end"

    over = False

    async def delivery_check(self, message):
        """The process's delivery check saw the database ahead of us."""
        await self._catch_up(self.sent)

    async def match_notice(self, message):
        data = message["data"]
        if data["t"] == "chat":
            room = ChatMessage.PLAYERS if self.color else ChatMessage.SPECTATORS
            if data["room"] != room:
                return  # players never see the spectators' chat, nor spectators the players'
        if data["t"] == "suspended" and data["d"].get("player") == self.player_id:
            await self.send_json({"t": "suspended", "v": None, "d": data["d"]})
            await self.close(code=SUSPENDED_CLOSE)
            return
        await self.send_json({"t": data["t"], "v": None, "d": data["d"]})

    # -- from the client ---------------------------------------------------------------------------
    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self._ping(data, version, game)
        elif kind == "resync":
            since = data.get("v")
            if since is not None and type(since) is not int:
                await self.error("bad_version", "'v' must be an integer.", re=kind)
                return
            await self._catch_up(since, with_chat=True)
        elif kind == "chat":
            await self._call(kind, services.chat_post, snapshot=False, limit=self.chat_flood,
                             match_id=self.match_id, player=None if self.player_id is None else "fresh",
                             text=data.get("text"))
        elif kind in ("claim", "rematch", "leave"):
            if not self.color:
                await self.error("spectator", "Spectators cannot do that.", re=kind)
                return
            service = {"claim": services.match_claim, "rematch": services.match_rematch,
                       "leave": services.match_leave}[kind]
            await self._call(kind, service, snapshot=False, match_id=self.match_id, player="fresh")
        else:
            await self._action(kind, data, version, game)

    async def _ping(self, data, version, game):
        """An idle ping carries the version the client holds: answer with what it misses."""
        await self.send_json({"t": "pong", "v": None, "d": {"game": self.game_id, "v": self.sent}})
        if type(version) is int and (game in (None, self.game_id)) and version < self.sent:
            await self._catch_up(version)
        elif type(game) is int and game < (self.game_id or 0):
            await self._catch_up(None)

    async def _action(self, kind, data, version, game):
        try:
            spec = lookup(kind)
        except UnknownAction:
            await self.error("unknown_type", f"Unknown message type {kind!r}.", re=kind)
            return
        if not self.color:
            await self.error("spectator", "Spectators cannot play.", re=kind)
            return
        if type(version) is not int:
            await self.error("bad_version", "Send the version you have seen as 'v'.", re=kind)
            return
        if game is not None and game != self.game_id:
            # Versions restart with each game: an action meant for another game is stale.
            await self.error("stale_version", "That game is over; here is the current one.", re=kind)
            await self._send_snapshot()
            return
        try:
            fields = spec.take_fields(data)
        except MissingField as exc:
            await self.error("bad_message", f"'{kind}' needs 'd.{exc.field}'.", re=kind)
            return
        await self._call(kind, services.game_act, snapshot=True, game_id=self.game_id, player=self.player_id,
                         action=spec.name, expected_version=version, **fields)

    def _run(self, service, kwargs):
        """Synchronous (``games.db.calls.db``). "fresh" is the socket's player read now (a suspension
        takes effect at once); game actions read the seat's player under the lock."""
        if kwargs.get("player") == "fresh":
            kwargs["player"] = Player.objects.get(pk=self.player_id)
        return service(**kwargs)

    async def refused(self):
        """After a refused action: the client gets the state it must act on."""
        await self._send_snapshot()


class LobbyConsumer(_Base):
    """The live list of open matches and games in progress, numbered like game events."""

    version = 0

    async def connect(self):
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self._send_lobby()
        delivery.watch_lobby(self)

    def _lobby(self) -> tuple:
        version = lobby_version()
        return version, {
            "open": [selectors.match_dict(m) for m in selectors.open_matches()[:100]],
            "live": [selectors.match_dict(m) for m in selectors.live_matches()[:100]],
        }

    async def _send_lobby(self):
        version, data = await db(self._lobby)
        await self.send_json({"t": "lobby", "v": version, "d": data})
        self.version = version

    async def disconnect(self, code):
        delivery.unwatch(self)
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_message(self, message):
        data = message["data"]
        if data["v"] <= self.version:
            return
        if data["v"] != self.version + 1:
            await self._send_lobby()  # one was lost: send the whole list again
            return
        await self.send_json({"t": data["t"], "v": data["v"], "d": data["d"]})
        self.version = data["v"]

    async def delivery_check(self, message):
        await self._send_lobby()

    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self.send_json({"t": "pong", "v": None, "d": {"v": self.version}})
            if type(version) is int and version < self.version:
                await self._send_lobby()
        elif kind == "resync":
            await self._send_lobby()
        else:
            await self.error("unknown_type", "The lobby answers 'ping' and 'resync'.", re=kind[:30])


"""Websocket consumers: thin. Parse, check the shape, call a service, forward events.

``GameConsumer`` serves ``/ws/games/<id>/?v=<last version seen>`` to the two
players and any number of spectators; ``LobbyConsumer`` serves ``/ws/lobby/``.
The protocol is written down in docs/PROTOCOL.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from . import selectors, services
from .engine.errors import EngineError
from .errors import ServiceError
from .events import game_group
from .models import ChatMessage, Game, Player
from .realtime import LOBBY_GROUP, attach_loop, match_group
from .services.games import state_summary

logger = logging.getLogger(__name__)

MAX_MESSAGE = 4096  # bytes of one client message
MAX_REPLAY = 500  # more missing events than this: send a snapshot instead
POLICY_VIOLATION = 1008
FRESH = object()  # "the socket's player, read from the database when the service runs"


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


def _player_of(user):
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


# client message type -> (service, names of fields taken from "d")
ACTIONS = {
    "roll": (services.game_roll, ()),
    "move": (services.game_move, ("moves",)),
    "double": (services.game_double, ()),
    "take": (services.game_take, ()),
    "drop": (services.game_drop, ()),
    "beaver": (services.game_beaver, ()),
    "raccoon": (services.game_raccoon, ()),
    "resign_offer": (services.game_resign_offer, ("level",)),
    "resign_accept": (services.game_resign_accept, ()),
    "resign_reject": (services.game_resign_reject, ()),
    "resign": (services.game_resign, ()),
}


class _Base(AsyncWebsocketConsumer):
    """Size limit, JSON parsing and flood control shared by both sockets."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.flood = Flood(getattr(settings, "GAMES_WS_FLOOD_LIMIT", 40), 2.0)

    async def send_json(self, data: dict) -> None:
        await self.send(text_data=json.dumps(data, separators=(",", ":")))

    async def error(self, code: str, message: str, **extra) -> None:
        await self.send_json({"t": "error", "v": None, "d": {"code": code, "message": message, **extra}})

    async def receive(self, text_data=None, bytes_data=None):
        if not self.flood.hit():
            await self.close(code=POLICY_VIOLATION)
            return
        if text_data is None:
            await self.error("bad_message", "Send JSON text frames.")
            return
        if len(text_data.encode("utf-8")) > MAX_MESSAGE:
            await self.error("too_large", f"A message may be at most {MAX_MESSAGE} bytes.")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.error("bad_json", "That is not valid JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            await self.error("bad_message", 'A message is an object with a type: {"t": ..., "d": {...}, "v": N}.')
            return
        data = message.get("d", {})
        if data is None:
            data = {}
        if not isinstance(data, dict):
            await self.error("bad_message", "'d' must be an object.", re=message["t"][:30])
            return
        self.message_game = message.get("game")
        await self.handle(message["t"], data, message.get("v"))

    async def handle(self, kind: str, data: dict, version) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class GameConsumer(_Base):
    """One socket on one match, following it from game to game."""

    async def connect(self):
        attach_loop(asyncio.get_running_loop())
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.chat_flood = Flood(getattr(settings, "GAMES_CHAT_LIMIT", 5), 10.0)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        try:
            since = int(query["v"][0]) if "v" in query else None
        except ValueError:
            since = None
        seat = await database_sync_to_async(self._seat)()
        if seat is None:
            await self.close()  # unknown game or not allowed to watch: the handshake is refused
            return
        self.match_id, self.player_id, self.color = seat
        self.role = self.color or "spectator"
        await self.accept()
        # Join the groups first, then read: nothing published in between is lost.
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        for message in await database_sync_to_async(self._catch_up)(since):
            await self.send_json(message)
        await database_sync_to_async(services.presence_join)(
            match_id=self.match_id, channel_name=self.channel_name, player=self._player_ref(), role=self.role)
        _start_sweeper()

    def _player_ref(self):
        return Player(pk=self.player_id) if self.player_id else None

    def _seat(self):
        game = Game.objects.select_related("match").filter(pk=self.game_id).first()
        if game is None:
            return None
        match = game.match
        player = _player_of(self.scope.get("user"))
        if not selectors.may_watch(match, player):
            return None
        return match.pk, (player.pk if player else None), selectors.viewer_color(match, player)

    def _catch_up(self, since) -> list:
        """The missing events since ``since`` (with the legal plays if it is our move) or a snapshot."""
        game = Game.objects.select_related("match", "match__white", "match__black").get(pk=self.game_id)
        if since is not None and 0 <= since <= game.version and game.version - since <= MAX_REPLAY:
            out = [self._for_viewer(e) for e in selectors.events_since(game, since)]
            state = game.game_state()
            if out:
                out[-1]["state"] = state_summary(game, state)
            if out and state.phase == "move" and state.actor == self.color:
                out[-1]["legalMoves"] = [p.to_list() for p in state.legal_plays()]
        else:
            out = [self._snapshot_message(game)]
        room = ChatMessage.PLAYERS if self.color else ChatMessage.SPECTATORS
        out.append({"t": "chat_history", "v": None, "d": {"room": room,
                                                          "messages": services.chat_recent(game.match, room)}})
        return out

    def _snapshot_message(self, game=None) -> dict:
        game = game or Game.objects.select_related("match", "match__white", "match__black").get(pk=self.game_id)
        return {"t": "snapshot", "v": game.version, "d": selectors.game_snapshot(game, self.color)}

    def _for_viewer(self, data: dict) -> dict:
        out = {"t": data["t"], "v": data["v"], "d": data["d"], "game": data["game"]}
        if "state" in data:
            out["state"] = data["state"]
        if data.get("legalMoves") is not None and data.get("legalFor") == self.color:
            out["legalMoves"] = data["legalMoves"]
        return out

    async def disconnect(self, code):
        if getattr(self, "match_id", None) is None:
            return
        await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)
        await self.channel_layer.group_discard(match_group(self.match_id), self.channel_name)
        await database_sync_to_async(services.presence_leave)(channel_name=self.channel_name)

    # -- from the channel layer ---------------------------------------------------------------
    async def game_event(self, message):
        data = message["data"]
        if data["game"] != self.game_id:
            return
        await self.send_json(self._for_viewer(data))
        d = data["d"]
        if data["t"] == "game_end" and d.get("nextGame") and not d.get("matchOver"):
            # Follow the match into its next game.
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)
            self.game_id = d["nextGame"]
            await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
            await self.send_json(await database_sync_to_async(self._snapshot_message)())

    async def match_message(self, message):
        data = message["data"]
        if data["t"] == "chat":
            room = ChatMessage.PLAYERS if self.color else ChatMessage.SPECTATORS
            if data["room"] != room:
                return  # players never see the spectators' chat, nor spectators the players'
        await self.send_json({"t": data["t"], "v": None, "d": data["d"]})

    # -- from the client -------------------------------------------------------------------------
    async def handle(self, kind, data, version):
        if kind in ACTIONS:
            await self._action(kind, data, version)
        elif kind == "chat":
            await self._call("chat", services.chat_post, snapshot=False, match_id=self.match_id,
                             player=FRESH, text=data.get("text"), _limit=self.chat_flood)
        elif kind == "resync":
            since = data.get("v")
            if since is not None and type(since) is not int:
                await self.error("bad_version", "'v' must be an integer.", re=kind)
                return
            for message in await database_sync_to_async(self._catch_up)(since):
                await self.send_json(message)
        elif kind == "ping":
            await self.send_json({"t": "pong", "v": None, "d": {}})
        elif kind in ("claim", "rematch", "leave"):
            if not self.color:
                await self.error("spectator", "Spectators cannot do that.", re=kind)
                return
            fn = {"claim": services.match_claim, "rematch": services.match_rematch,
                  "leave": services.match_leave}[kind]
            await self._call(kind, fn, snapshot=False, match_id=self.match_id, player=FRESH)
        else:
            await self.error("unknown_type", f"Unknown message type {kind[:30]!r}.", re=kind[:30])

    def _run_service(self, service, kwargs):
        """In the database thread: read the player afresh (a suspension takes effect at
        once), then call the service. One thread hop per action."""
        if kwargs.get("player") is FRESH:
            kwargs["player"] = Player.objects.get(pk=self.player_id) if self.player_id else None
        return service(**kwargs)

    async def _action(self, kind, data, version):
        if not self.color:
            await self.error("spectator", "Spectators cannot play.", re=kind)
            return
        if type(version) is not int:
            await self.error("bad_version", "Send the version you have seen as 'v'.", re=kind)
            return
        if self.message_game is not None and self.message_game != self.game_id:
            # Versions restart with each game: an action meant for the previous game is stale.
            await self.error("stale_version", "That game is over; here is the current one.", re=kind)
            await self.send_json(await database_sync_to_async(self._snapshot_message)())
            return
        service, fields = ACTIONS[kind]
        kwargs = {}
        for name in fields:
            if name not in data:
                await self.error("bad_message", f"'{kind}' needs 'd.{name}'.", re=kind)
                return
            kwargs[name] = data[name]
        await self._call(kind, service, snapshot=True, game_id=self.game_id,
                         player=FRESH, expected_version=version, **kwargs)

    async def _call(self, kind, service, *, snapshot, _limit=None, **kwargs):
        if _limit is not None and not _limit.hit():
            await self.error("rate_limited", "Slow down: too many messages.", re=kind)
            return
        try:
            await database_sync_to_async(self._run_service)(service, kwargs)
        except (ServiceError, EngineError) as exc:
            await self.error(exc.code, exc.message, re=kind)
            if snapshot:
                await self.send_json(await database_sync_to_async(self._snapshot_message)())


class LobbyConsumer(_Base):
    """The live list of open matches and games in progress."""

    async def connect(self):
        attach_loop(asyncio.get_running_loop())
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.send_json({"t": "lobby", "v": None, "d": await database_sync_to_async(self._lobby)()})

    def _lobby(self) -> dict:
        return {
            "open": [selectors.match_dict(m) for m in selectors.open_matches()[:100]],
            "live": [selectors.match_dict(m) for m in selectors.live_matches().select_related("white", "black")[:100]],
        }

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_message(self, message):
        data = message["data"]
        await self.send_json({"t": data["t"], "v": None, "d": data["d"]})

    async def handle(self, kind, data, version):
        if kind == "ping":
            await self.send_json({"t": "pong", "v": None, "d": {}})
        else:
            await self.error("unknown_type", "The lobby only answers 'ping'.", re=kind[:30])


# -- the periodic sweep (clocks, abandoned matches), one task per server process -----------
_sweeper = None


def _start_sweeper() -> None:
    global _sweeper
    interval = getattr(settings, "GAMES_SWEEP_INTERVAL", 1.0)
    if not interval or (_sweeper is not None and not _sweeper.done()):
        return
    _sweeper = asyncio.get_running_loop().create_task(_sweep_forever(interval))


async def _sweep_forever(interval: float) -> None:
    from .bots import runner

    rounds = 0
    while True:
        try:
            await database_sync_to_async(services.sweep)()
            if rounds % 30 == 0:  # house bots whose turn was lost (a restart) play again
                await database_sync_to_async(runner.resume_waiting)()
        except Exception:  # keep sweeping; the next round retries
            logger.exception("sweep failed")
        rounds += 1
        await asyncio.sleep(interval)

"""The lobby socket: ``/ws/lobby/``, the live list of open matches and games in progress,
numbered like game events (docs/PROTOCOL.md, "The lobby socket")."""

from __future__ import annotations

from games.consumers.base import SocketConsumer
from games.db.calls import db
from games.events import LOBBY_GROUP
from games.realtime import delivery
from games.selectors import games as selectors
from games.selectors.lobby import lobby_version
from django.utils.translation import gettext


class LobbyConsumer(SocketConsumer):
    """The live list of open matches and games in progress, numbered like game events."""

    sent = 0  # the lobby version this socket has sent its client

    async def connect(self):
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self._send_lobby()
        delivery.watch_lobby(self)
        self.attach_wire()

    def _lobby(self) -> tuple:
        version = lobby_version()
        return version, {
            "open": [selectors.match_dict(m) for m in selectors.open_matches()[:100]],
            "live": [selectors.match_dict(m) for m in selectors.live_matches()[:100]],
        }

    async def _send_lobby(self):
        version, data = await db(self._lobby)
        await self.send_json({"t": "lobby", "v": version, "d": data})
        self.sent = version

    async def disconnect(self, code):
        delivery.unwatch(self)
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_message(self, message):
        data = message["data"]
        if data["v"] <= self.sent:
            return
        if data["v"] != self.sent + 1:
            await self._send_lobby()  # one was lost: send the whole list again
            return
        await self.send_json({"t": data["t"], "v": data["v"], "d": data["d"]})
        self.sent = data["v"]

    async def catch_up(self, since, with_chat=False):
        await self._send_lobby()

    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self.answer_ping(version, self.sent)
        elif kind == "resync":
            await self._send_lobby()
        else:
            await self.error("unknown_type", gettext("The lobby answers 'ping' and 'resync'."), re=kind[:30])

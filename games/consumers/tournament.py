"""The tournament socket: ``/ws/tournaments/<id>/``. Every change of a tournament (an entry,
the draw, a result, the next round's matches) bumps its version; the socket tells the page
``{"t": "tournament", "v": version}`` and the page reads itself again (docs/PROTOCOL.md,
"The tournament socket"). An idle ping with an older version is answered the same way."""

from __future__ import annotations

from games.consumers.base import SocketConsumer
from games.db.calls import db
from games.events import tournament_group
from games.models import Tournament
from django.utils.translation import gettext

NOT_FOUND_CLOSE = 4004


class TournamentConsumer(SocketConsumer):
    sent = 0  # the tournament version this socket has told its client

    def _version(self):
        return Tournament.objects.filter(pk=self.tournament_id).values_list("version", flat=True).first()

    async def connect(self):
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.group = tournament_group(self.tournament_id)
        version = await db(self._version)
        if version is None:
            await self.close(code=NOT_FOUND_CLOSE)
            return
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._tell(version)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def _tell(self, version: int):
        await self.send_json({"t": "tournament", "v": version, "d": {"id": self.tournament_id}})
        self.sent = max(self.sent, version)

    async def match_notice(self, message):
        """A committed change (``services.tournament_play.store``)."""
        data = message["data"]
        if data.get("t") == "tournament" and data["d"]["version"] > self.sent:
            await self._tell(data["d"]["version"])

    async def catch_up(self, since, with_chat=False):
        version = await db(self._version)
        if version is not None and (since is None or version > since):
            await self._tell(version)

    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self.answer_ping(version, await db(self._version) or 0)
        else:
            await self.error("unknown_type", gettext("The tournament socket answers 'ping'."), re=kind)

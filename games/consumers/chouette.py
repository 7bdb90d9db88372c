"""The chouette's websocket: ``/ws/chouettes/<id>/?v=<last version seen>`` (thin: parse,
look the action up, call a service, forward what the services published).

Seated players, and spectators of a public chouette, follow one event sequence numbered
by the chouette's version across its games. A frame that skips a version, a ``resync``
or an idle ``ping`` with an older version than the socket sent makes the socket read
what is missing from the database and end with a ``snapshot``. Team chat and suggested
plays reach only the current game's team. The protocol is docs/PROTOCOL.md, "Chouettes".
"""

from __future__ import annotations


from games import conf, services
from games.consumers.base import MAX_REPLAY, Flood, SocketConsumer, since_of
from games.db.calls import db
from games.engine.actions import CHOUETTE, UnknownAction, lookup
from games.events import chouette_group, dumps, frame
from games.models import Chouette, ChouetteChat, ChouetteGame, ChouetteSeat
from games.realtime import delivery
from games.selectors import chouettes as chouette_view, visibility
from games.selectors.players import player_of
from django.utils.translation import gettext

TABLE_ACTIONS = {
    "start": services.chouette_start,
    "restart": services.chouette_restart,
    "leave_table": services.chouette_leave,
}


class ChouetteConsumer(SocketConsumer):
    """One socket on one chouette: the same base, frames and catch-up as a match's socket."""

    chouette_id = None
    sent = 0

    async def connect(self):
        self.chat_flood = Flood(conf.value("GAMES_CHAT_LIMIT"), 10.0)
        since = since_of(self.scope)
        seen = await db(self._viewer, int(self.scope["url_route"]["kwargs"]["chouette_id"]))
        if seen is None:
            await self.close()
            return
        self.chouette_id, self.player_id = seen
        await self.accept()
        await self.channel_layer.group_add(chouette_group(self.chouette_id), self.channel_name)
        await self.catch_up(since, with_chat=True)
        delivery.watch_chouette(self)
        self.attach_wire()
        await db(services.chouette_presence,
                 chouette_id=self.chouette_id, player_id=self.player_id, here=True)

    def _viewer(self, chouette_id):
        c = Chouette.objects.filter(pk=chouette_id).first()
        user = self.scope.get("user")
        if c is None or not visibility.can_view_chouette(user, c):
            return None
        player = player_of(user)
        return c.pk, (player.pk if player else None)

    async def disconnect(self, code):
        delivery.unwatch(self)
        if self.chouette_id is None:
            return
        await self.channel_layer.group_discard(chouette_group(self.chouette_id), self.channel_name)
        await db(services.chouette_presence,
                 chouette_id=self.chouette_id, player_id=self.player_id, here=False)

    # -- what the client is missing -------------------------------------------------------------
    def _missing(self, since, with_chat):
        c = Chouette.objects.get(pk=self.chouette_id)
        out = []
        if since is not None and 0 <= since < c.version and c.version - since <= MAX_REPLAY:
            out.extend(frame(env, None) for env in chouette_view.events_since(c, since))
        out.append(dumps({"t": "snapshot", "v": c.version, "d": chouette_view.snapshot(c, self.player_id)}))
        if with_chat:
            out.append(dumps({"t": "chat_history", "v": None,
                              "d": {"messages": chouette_view.chat_recent(c, self.player_id)}}))
        return c.version, out

    async def catch_up(self, since, with_chat=False):
        version, frames = await db(self._missing, since, with_chat)
        for text in frames:
            await self.send(text_data=text)
        self.sent = version

    # -- from the channel layer -------------------------------------------------------------------
    async def match_events(self, message):
        await self.forward(message, str(self.player_id))

    def _may_read(self, data) -> bool:
        if data["room"] == ChouetteChat.SPECTATORS:
            return not self._seated()
        if data["room"] == ChouetteChat.TABLE:
            return self._seated()
        row = ChouetteGame.objects.filter(pk=data["game"]).first()
        return row is not None and self.player_id in row.state["team"]

    def _seated(self) -> bool:
        return self.player_id is not None and ChouetteSeat.objects.filter(
            chouette_id=self.chouette_id, player_id=self.player_id, active=True).exists()

    async def match_notice(self, message):
        data = message["data"]
        if data["t"] == "chat" and not await db(self._may_read, data):
            return
        await self.send_json({"t": data["t"], "v": None, "d": data["d"]})

    # -- from the client ----------------------------------------------------------------------------
    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self.answer_ping(version, self.sent)
        elif kind == "resync":
            since = data.get("v")
            await self.catch_up(since if type(since) is int else None, with_chat=True)
        elif self.player_id is None:
            await self.error("spectator", gettext("Log in to take part."), re=kind)
        elif kind == "chat":
            await self.call(kind, services.chouette_chat, limit=self.chat_flood, player="fresh",
                             text=data.get("text"), room=data.get("room"))
        elif kind == "suggest":
            steps = data.get("steps", data.get("moves"))
            await self.call(kind, services.chouette_suggest, limit=self.chat_flood, player="fresh", steps=steps)
        elif kind == "join":
            await self.call(kind, services.chouette_join, player="fresh", snapshot=True)
        elif kind == "add_bot":
            await self.call(kind, services.chouette_add_bot, player="fresh",
                             level=data.get("level", "beginner"))
        elif kind in TABLE_ACTIONS:
            await self.call(kind, TABLE_ACTIONS[kind], player="fresh")
        else:
            await self._action(kind, data, version)

    async def _action(self, kind, data, version):
        try:
            fields = lookup(kind, CHOUETTE).take_fields(data)
        except UnknownAction:
            await self.error("unknown_type", gettext("Unknown message type %(kind)s.") % {"kind": repr(kind)}, re=kind)
            return
        if type(version) is not int:
            await self.error("bad_version", gettext("Send the version you have seen as 'v'."), re=kind)
            return
        await self.call(kind, services.chouette_act, snapshot=True, player=self.player_id,
                         action=kind, expected_version=version, **fields)

    def service_kwargs(self) -> dict:
        return {"chouette_id": self.chouette_id}

__all__ = ["ChouetteConsumer"]

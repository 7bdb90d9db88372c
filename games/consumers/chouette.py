"""The chouette's websocket: ``/ws/chouettes/<id>/?v=<last version seen>`` (thin: parse,
look the action up, call a service, forward what the services published).

Seated players, and spectators of a public chouette, follow one event sequence numbered
by the chouette's version across its games. A frame that skips a version, a ``resync``
or an idle ``ping`` with an older version than the socket sent makes the socket read
what is missing from the database and end with a ``snapshot``. Team chat and suggested
plays reach only the current game's team. The protocol is docs/PROTOCOL.md, "Chouettes".
"""

from __future__ import annotations


from games.selectors import chouettes as chouette_view
from games.realtime import delivery
from games.selectors.players import player_of
from games import services
from games.engine.actions import UnknownAction, chouette_fields
from games.consumers.game import MAX_REPLAY, Flood, _Base, since_of
from games.db.calls import db
from games.events import chouette_group
from games.models import Chouette, ChouetteChat, ChouetteGame, ChouetteSeat, Player
from games.realtime.bridge import ANYONE
from games import conf

TABLE_ACTIONS = {
    "start": services.chouette_start,
    "restart": services.chouette_restart,
    "leave_table": services.chouette_leave,
}


class ChouetteConsumer(_Base):
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
        await self._catch_up(since, with_chat=True)
        delivery.watch_chouette(self)
        await db(services.chouette_presence,
                 chouette_id=self.chouette_id, player_id=self.player_id, here=True)

    def _viewer(self, chouette_id):
        c = Chouette.objects.filter(pk=chouette_id).first()
        if c is None:
            return None
        player = player_of(self.scope.get("user"))
        pid = player.pk if player else None
        seated = pid is not None and ChouetteSeat.objects.filter(chouette=c, player_id=pid).exists()
        if c.private and not seated:
            return None
        return c.pk, pid

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
            out.extend(chouette_view.events_since(c, since))
        out.append({"t": "snapshot", "v": c.version, "d": chouette_view.snapshot(c, self.player_id)})
        if with_chat:
            out.append({"t": "chat_history", "v": None,
                        "d": {"messages": chouette_view.chat_recent(c, self.player_id)}})
        return c.version, out

    async def _catch_up(self, since, with_chat=False):
        version, frames = await db(self._missing, since, with_chat)
        for frame in frames:
            await self.send_json(frame)
        self.sent = version

    # -- from the channel layer -------------------------------------------------------------------
    async def match_events(self, message):
        frames = message["views"].get(str(self.player_id)) or message["views"][ANYONE]
        for (_game, version, _kind), frame in zip(message["index"], frames):
            if version <= self.sent:
                continue
            if version != self.sent + 1:
                await self._catch_up(self.sent)
                continue
            await self.send(text_data=frame)
            self.sent = version

    async def delivery_check(self, message):
        """The process's delivery check saw the database ahead of this socket."""
        await self._catch_up(self.sent)

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
            await self.send_json({"t": "pong", "v": None, "d": {"v": self.sent}})
            if type(version) is int and version < self.sent:
                await self._catch_up(version)
        elif kind == "resync":
            since = data.get("v")
            await self._catch_up(since if type(since) is int else None, with_chat=True)
        elif self.player_id is None:
            await self.error("spectator", "Log in to take part.", re=kind)
        elif kind == "chat":
            await self._call(kind, services.chouette_chat, limit=self.chat_flood, player="fresh",
                             text=data.get("text"), room=data.get("room"))
        elif kind == "suggest":
            steps = data.get("steps", data.get("moves"))
            await self._call(kind, services.chouette_suggest, limit=self.chat_flood, player="fresh", steps=steps)
        elif kind == "join":
            await self._call(kind, services.chouette_join, player="fresh", snapshot=True)
        elif kind == "add_bot":
            await self._call(kind, services.chouette_add_bot, player="fresh",
                             level=data.get("level", "beginner"))
        elif kind in TABLE_ACTIONS:
            await self._call(kind, TABLE_ACTIONS[kind], player="fresh")
        else:
            await self._action(kind, data, version)

    async def _action(self, kind, data, version):
        try:
            fields = chouette_fields(kind, data)
        except UnknownAction:
            await self.error("unknown_type", f"Unknown message type {kind!r}.", re=kind)
            return
        if type(version) is not int:
            await self.error("bad_version", "Send the version you have seen as 'v'.", re=kind)
            return
        await self._call(kind, services.chouette_act, snapshot=True, player=self.player_id,
                         action=kind, expected_version=version, **fields)

    def _run(self, service, kwargs):
        if kwargs.get("player") == "fresh":
            kwargs["player"] = Player.objects.get(pk=self.player_id)
        kwargs.setdefault("chouette_id", self.chouette_id)
        return service(**kwargs)

    async def refused(self):
        await self._catch_up(None)

__all__ = ["ChouetteConsumer"]

"""The match socket: ``/ws/games/<id>/?v=<last version seen>``, for the two players and any
number of spectators, following the match from game to game (each game numbers its own
events). The protocol is docs/PROTOCOL.md."""

from __future__ import annotations

from games import conf, services
from games.consumers.base import MAX_REPLAY, SUSPENDED_CLOSE, Flood, SocketConsumer, since_of
from games.db.calls import db
from games.engine.actions import MissingField, UnknownAction, lookup
from games.events import dumps, match_group
from games.models import ChatMessage, Game
from games.realtime import delivery
from games.realtime.bridge import ANYONE
from games.selectors import games as selectors
from games.selectors import social
from games.selectors.players import player_of
from games.selectors.visibility import can_view_match
from django.utils.translation import gettext


class GameConsumer(SocketConsumer):
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
        await self.catch_up(since, with_chat=True)
        delivery.watch(self)
        self.attach_wire()
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

    async def catch_up(self, since, with_chat=False):
        game_id, version, over, frames = await db(self._missing, self.game_id, since, with_chat)
        await self.send_frames(frames)
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
        out = []  # written together, before anything that waits (nothing reads ``sent`` between)
        for (game, version, kind), frame in zip(message["index"], frames):
            if game != self.game_id:
                if game > self.game_id and kind == "game_start" and version == 1 and self.over:
                    self.game_id, self.sent = game, 0  # the match's next game
                elif game < self.game_id:
                    continue  # an older game's late event (rematch offers): already read
                else:
                    await self.send_frames(out)
                    await self.catch_up(self.sent)
                    continue
            if version <= self.sent:
                continue  # sent already (a catch-up got there first)
            if version != self.sent + 1:
                await self.send_frames(out)
                await self.catch_up(self.sent)
                continue
            out.append(frame)
            self.sent = version
            self.over = kind == "game_end"
        await self.send_frames(out)

    over = False

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
                await self.error("bad_version", gettext("'v' must be an integer."), re=kind)
                return
            await self.catch_up(since, with_chat=True)
        elif kind == "chat":
            await self.call(kind, services.chat_post, snapshot=False, limit=self.chat_flood,
                             match_id=self.match_id, player=None if self.player_id is None else "fresh",
                             text=data.get("text"))
        elif kind in ("claim", "rematch", "leave"):
            if not self.color:
                await self.error("spectator", gettext("Spectators cannot do that."), re=kind)
                return
            service = {"claim": services.match_claim, "rematch": services.match_rematch,
                       "leave": services.match_leave}[kind]
            await self.call(kind, service, snapshot=False, match_id=self.match_id, player="fresh")
        else:
            await self._action(kind, data, version, game)

    async def _ping(self, data, version, game):
        """An idle ping carries the version the client holds: answer with what it misses.
        (One that misses nothing is answered by the protocol layer: ``quick_pong``.)"""
        await self.send(text_data=self.pong_text())
        if type(version) is int and (game in (None, self.game_id)) and version < self.sent:
            await self.catch_up(version)
        elif type(game) is int and game < (self.game_id or 0):
            await self.catch_up(None)

    def pong_text(self) -> str:
        key = (self.game_id, self.sent)
        if self._pong[0] != key:
            self._pong = (key, dumps({"t": "pong", "v": None, "d": {"game": key[0], "v": key[1]}}))
        return self._pong[1]

    def behind(self, version, game) -> bool:
        return ((type(version) is int and game in (None, self.game_id) and version < self.sent)
                or (type(game) is int and game < (self.game_id or 0)))

    async def _action(self, kind, data, version, game):
        try:
            spec = lookup(kind)
        except UnknownAction:
            await self.error("unknown_type", gettext("Unknown message type %(kind)s.") % {"kind": repr(kind)}, re=kind)
            return
        if not self.color:
            await self.error("spectator", gettext("Spectators cannot play."), re=kind)
            return
        if type(version) is not int:
            await self.error("bad_version", gettext("Send the version you have seen as 'v'."), re=kind)
            return
        if game is not None and game != self.game_id:
            # Versions restart with each game: an action meant for another game is stale.
            await self.error("stale_version", gettext("That game is over; here is the current one."), re=kind)
            await self._send_snapshot()
            return
        try:
            fields = spec.take_fields(data)
        except MissingField as exc:
            await self.error("bad_message", gettext("'%(kind)s' needs 'd.%(field)s'.")
                    % {"kind": kind, "field": exc.field}, re=kind)
            return
        await self.call(kind, services.game_act, snapshot=True, game_id=self.game_id, player=self.player_id,
                         action=spec.name, expected_version=version, **fields)

    async def refused(self):
        """After a refused action: the client gets the game's state to act on."""
        await self._send_snapshot()

"""The player's own socket: ``/ws/me/``, opened by every page of a signed-in player (the
header, ``static/js/notices.mjs``). It joins the player's group
(``games.events.player_group``) and forwards the notices meant for them, such as "your
tournament match is ready" (docs/PROTOCOL.md, "The player socket"). Notices are not
numbered: one missed while no page was open is not replayed (it went by e-mail or push, and
the tournament's page shows the match)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from games.consumers.base import SocketConsumer, socket_language
from games.db.calls import db
from games.events import player_group
from games.selectors.players import player_of
from games.selectors.tournaments import label_words

ANONYMOUS_CLOSE = 4001
NOTICES = ("tournament_match",)  # the notices a page is told of


class PlayerConsumer(SocketConsumer):
    sent = 0

    def _player_id(self):
        player = player_of(self.scope.get("user"))
        return player.pk if player is not None else None

    async def connect(self):
        self.player_id = await db(self._player_id)
        if self.player_id is None:
            await self.close(code=ANONYMOUS_CLOSE)
            return
        self.group = player_group(self.player_id)
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def match_notice(self, message):
        data = message["data"]
        if data.get("t") in NOTICES:
            # made by whoever's action or worker paired the match: its name is worded here, in this
            # socket's language (as a page would be), from the English the tournament core gave it
            if self.language is None:
                self.language = await db(socket_language, self.scope)
            with translation.override(self.language):
                label = label_words(data["d"].get("label", ""))
            await self.send_json({"t": data["t"], "v": None, "d": {**data["d"], "label": label}})

    async def catch_up(self, since, with_chat=False):
        """Nothing to catch up: notices are not replayed."""

    async def handle(self, kind, data, version, game):
        if kind == "ping":
            await self.answer_ping(None, 0)
        else:
            await self.error("unknown_type", gettext("The player socket answers 'ping'."), re=kind)

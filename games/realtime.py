"""The bridge from committed events to the channel layer.

Registered as an events listener in ``GamesConfig.ready``: every event the
services publish after commit is sent to its group — game events to the
game's group, chat/presence/rematch messages to the match's group, lobby
updates to the lobby. Each socket then filters what it forwards to its viewer.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .events import game_group

LOBBY_GROUP = "lobby"


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def route(data: dict) -> tuple:
    """``(group, channel message)`` for a published wire dict."""
    if data.get("lobby"):
        return LOBBY_GROUP, {"type": "lobby.message", "data": data}
    if "v" in data and "game" in data:
        return game_group(data["game"]), {"type": "game.event", "data": data}
    return match_group(data["match"]), {"type": "match.message", "data": data}


def broadcast(data: dict) -> None:
    """Events listener: send ``data`` to its group (called after commit, in sync code)."""
    layer = get_channel_layer()
    if layer is None:
        return
    group, message = route(data)
    async_to_sync(layer.group_send)(group, message)

"""The bridge from committed events to the channel layer.

Registered as an events listener in ``GamesConfig.ready``: every event the
services publish after commit is sent to its group — game events to the
game's group, chat/presence/rematch messages to the match's group, lobby
updates to the lobby. Each socket then filters what it forwards to its viewer.
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .events import game_group

logger = logging.getLogger(__name__)

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


# In a server process the broadcast is handed to one sender task on the event loop: the
# database thread that committed does not wait for the channel layer, and one sender keeps
# the events in commit order.
_loop = None
_queue = None


def attach_loop(loop) -> None:
    """Send broadcasts from ``loop`` (the server's event loop; consumers call this)."""
    global _loop, _queue
    if _loop is loop:
        return
    _queue = asyncio.Queue()
    _loop = loop
    loop.create_task(_sender(_queue))


async def _sender(queue) -> None:
    layer = get_channel_layer()
    while True:
        group, message = await queue.get()
        try:
            await layer.group_send(group, message)
        except Exception:  # keep sending the others
            logger.exception("group_send to %s failed", group)


def broadcast(data: dict) -> None:
    """Events listener: send ``data`` to its group (called after commit, in sync code)."""
    group, message = route(data)
    loop, queue = _loop, _queue
    if loop is not None and loop.is_running() and not loop.is_closed():
        loop.call_soon_threadsafe(queue.put_nowait, (group, message))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)

"""The bridge from committed batches (``games.events``) to the channel layer.

Registered as an events listener in ``GamesConfig.ready``. A batch's game events go to
the match's group as **one** message holding each viewer's frames already serialised
(:func:`views`: the side that must play gets the legal plays, everyone else the same
frames without them), so a socket forwards text it did not have to build; chat and
presence notices go to the same group; lobby messages to the lobby group.

The layer is ``games.realtime.layer.FanoutLayer`` (in-process groups, plus a bus to the other
processes); any Channels layer works. Sending never blocks the committing thread: the
layer's thread-safe entry point hands the message to the event loop (or, in a process
without one, such as a worker, publishes it on the bus directly).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.events import LOBBY_GROUP, Batch, frame

logger = logging.getLogger(__name__)

ANYONE = "*"  # the frames of every viewer the legal plays are not for


def views(events: list) -> dict:
    """``{viewer: [frame text, ...]}``: ``"*"`` for everyone, plus one list per colour that
    must play (the same frames, its legal plays added). Built once per batch, each event's
    common text once."""
    common = [frame(env, None) for env in events]
    out = {ANYONE: common}
    for color in {env.legal_for for env in events if env.legal_for}:
        out[color] = [frame(env, color, text) for env, text in zip(events, common)]
    return out


def messages(batch: Batch) -> list:
    """``[(group, channel message)]`` for a batch."""
    out = []
    if batch.events:
        out.append((batch.target, {
            "type": "match.events",
            "index": [[env.game, env.v, env.t] for env in batch.events],
            "views": views(batch.events),
        }))
    for notice in batch.notices:
        out.append((batch.target, {"type": "match.notice", "data": notice}))
    if batch.lobby is not None:
        out.append((LOBBY_GROUP, {"type": "lobby.message", "data": batch.lobby}))
    return out


def broadcast(batch: Batch) -> None:
    """Events listener: send a committed batch to its groups."""
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages(batch):
        send_group(layer, group, message)


def send_group(layer, group: str, message: dict) -> None:
    """``group_send`` from any thread, without waiting for it."""
    threadsafe = getattr(layer, "group_send_threadsafe", None)
    if threadsafe is not None:
        threadsafe(group, message)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # at most once: the clients' idle ping recovers what is lost
        logger.exception("group_send to %s failed", group)

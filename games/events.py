"""Game events on the wire, and their broadcast after commit.

Every accepted action appends :class:`~games.models.GameEvent` rows; the
services call :func:`publish_on_commit` for each, and the listeners registered
here receive the event only once the transaction has committed (never for a
rolled-back action). The websocket layer registers its listener with
:func:`add_listener`; tests register their own.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)

_listeners: list = []


def game_group(game_id: int) -> str:
    """The channel-layer group of a game's sockets."""
    return f"game.{game_id}"


def event_dict(event) -> dict:
    """The wire envelope of a stored event: ``{"v", "t", "d", "game"}``."""
    return {
        "game": event.game_id,
        "v": event.version,
        "t": event.type,
        "d": event.payload,
        "actor": event.actor_id,
        "at": event.created_at.isoformat() if event.created_at else None,
    }


def add_listener(listener) -> None:
    """Call ``listener(event_dict)`` for every event after its transaction commits."""
    if listener not in _listeners:
        _listeners.append(listener)


def remove_listener(listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def publish_on_commit(event) -> None:
    """Send ``event`` to the listeners once the current transaction commits."""
    data = event_dict(event)

    def send():
        for listener in list(_listeners):
            try:
                listener(data)
            except Exception:  # a broken listener must not break the others
                logger.exception("event listener %r failed for %s v%s", listener, data["game"], data["v"])

    transaction.on_commit(send)

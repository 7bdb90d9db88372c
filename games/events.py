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


def publish_on_commit(event) -> dict:
    """Send ``event`` to the listeners once the current transaction commits.

    Returns the wire dict that will be sent, so the caller may still add
    derived fields (the legal plays of the side on roll) before the commit.
    """
    data = event_dict(event)
    _on_commit(data)
    return data


def publish_data_on_commit(data: dict) -> None:
    """Send a wire dict that is not a stored game event (chat, presence, lobby)."""
    _on_commit(data)


def _on_commit(data: dict) -> None:
    def send():
        for listener in list(_listeners):
            try:
                listener(data)
            except Exception:  # a broken listener must not break the others
                logger.exception("event listener %r failed for %r", listener, data.get("t"))

    transaction.on_commit(send)


def lobby_entry(match) -> dict | None:
    """A lobby message for a match that opened, started, scored or ended (None for a
    private match: it never appears in the lobby)."""
    from .selectors import match_dict

    if match.private:
        return None
    visible = match.status in ("open", "playing")
    if visible and match.status == "playing" and not match.spectators_allowed:
        visible = False
    if visible:
        return {"lobby": True, "t": "lobby_update", "d": match_dict(match)}
    return {"lobby": True, "t": "lobby_remove", "d": {"id": match.pk}}


def publish_match_on_commit(match) -> None:
    """Tell the lobby about ``match`` after commit (never about a private match)."""
    entry = lobby_entry(match)
    if entry is not None:
        _on_commit(entry)

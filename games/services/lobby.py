"""The lobby's version: one counter bumped, in the same transaction, by every change to a
public match's lobby entry, so lobby messages are numbered without gaps in commit order
and a client that missed one notices (docs/PROTOCOL.md, "The lobby socket")."""

from __future__ import annotations

from django.db.models import F

from .. import serializers
from ..models import Counter, Match

LOBBY = "lobby"


def lobby_visible(match: Match) -> bool:
    """Whether the lobby lists ``match``: public, and open or being played with spectators."""
    if match.private:
        return False
    if match.status == Match.OPEN:
        return True
    return match.status == Match.PLAYING and match.spectators_allowed


def lobby_message(match: Match) -> dict | None:
    """The numbered lobby message for a change of ``match`` (None for a private match, which
    the lobby never shows). Takes the lobby counter's row lock until the commit."""
    if match.private:
        return None
    version = bump(LOBBY)
    if lobby_visible(match):
        return {"t": "lobby_update", "v": version, "d": serializers.match_dict(match)}
    return {"t": "lobby_remove", "v": version, "d": {"id": match.pk}}


def bump(name: str) -> int:
    """Increment counter ``name`` and return its new value (the row stays locked until commit)."""
    if not Counter.objects.filter(name=name).update(value=F("value") + 1):
        Counter.objects.get_or_create(name=name)
        Counter.objects.filter(name=name).update(value=F("value") + 1)
    return Counter.objects.filter(name=name).values_list("value", flat=True).get()


def lobby_version() -> int:
    return Counter.objects.filter(name=LOBBY).values_list("value", flat=True).first() or 0

"""The lobby's version: one counter bumped, in the same transaction, by every change to a
public match's lobby entry, so lobby messages are numbered without gaps in commit order
and a client that missed one notices (docs/PROTOCOL.md, "The lobby socket")."""

from __future__ import annotations

from django.conf import settings
from django.db.models import F
from django.utils import translation

from games.models import Counter, Match
from games.selectors import serializers
from games.selectors.lobby import LOBBY, lobby_visible


def lobby_message(match: Match) -> dict | None:
    """The numbered lobby message for a change of ``match`` (None for a private match, which
    the lobby never shows). Takes the lobby counter's row lock until the commit. It goes to every
    lobby, whatever its readers' languages: its worded fields (the time control's ``label``) are
    in the site's language, not in that of the request that changed the match; pages word the
    time control from its numbers (``timeControlText`` in texts.mjs)."""
    if match.private:
        return None
    version = bump(LOBBY)
    if lobby_visible(match):
        with translation.override(settings.LANGUAGE_CODE):
            return {"t": "lobby_update", "v": version, "d": serializers.match_dict(match)}
    return {"t": "lobby_remove", "v": version, "d": {"id": match.pk}}


def bump(name: str) -> int:
    """Increment counter ``name`` and return its new value (the row stays locked until commit)."""
    if not Counter.objects.filter(name=name).update(value=F("value") + 1):
        Counter.objects.get_or_create(name=name)
        Counter.objects.filter(name=name).update(value=F("value") + 1)
    return Counter.objects.filter(name=name).values_list("value", flat=True).get()



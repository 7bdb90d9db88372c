"""Reads of the lobby: which matches it lists (public, open or watched, not deserted) and its version."""

from __future__ import annotations

from django.db.models import Q

from games.models import Counter, Match

LOBBY = "lobby"


def lobby_visible(match: Match) -> bool:
    """Whether the lobby lists ``match``: public, and open or being played with spectators."""
    if match.private:
        return False
    if match.status == Match.OPEN:
        return True
    return match.status == Match.PLAYING and match.spectators_allowed and not deserted(match)


def deserted(match: Match) -> bool:
    """Whether every human at the table has left (no socket open): such a game is not worth
    watching, so the lobby stops listing it until someone comes back. A table of programs
    only (agents, house bots: they have no socket) is never deserted."""
    humans = [c for c in ("white", "black") if match.player_of(c) is not None and not match.player_of(c).is_bot]
    return bool(humans) and all(getattr(match, f"{c}_away_since") is not None for c in humans)


def deserted_q() -> Q:
    """:func:`deserted` as a query filter (the lobby's list of games in progress)."""
    white_gone = Q(white__is_bot=True) | Q(white_away_since__isnull=False)
    black_gone = Q(black__is_bot=True) | Q(black_away_since__isnull=False)
    return white_gone & black_gone & (Q(white__is_bot=False) | Q(black__is_bot=False))


def lobby_version() -> int:
    return Counter.objects.filter(name=LOBBY).values_list("value", flat=True).first() or 0

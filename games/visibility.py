"""Who may see a match: the one rule, for pages, exports, JSON views, sockets and the bot API.

Minimal version built on :func:`games.selectors.can_view` (the current spectator rule);
the trust work replaces it with the full rule, keeping these names.
"""

from __future__ import annotations

from django.http import Http404

from .models import Match, Player
from .selectors import can_view

__all__ = ["can_view_match", "match_for_viewer_or_404"]


def _player(user) -> Player | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def can_view_match(user, match: Match) -> bool:
    """Whether ``user`` (a Django user, anonymous or None) may see ``match``."""
    return can_view(match, _player(user), user)


def match_for_viewer_or_404(user, match_id) -> Match:
    """The match if ``user`` may see it; otherwise 404, the same answer as for a match that
    does not exist."""
    match = Match.objects.select_related("white", "black", "winner").filter(pk=match_id).first()
    if match is None or not can_view_match(user, match):
        raise Http404("No such match.")
    return match

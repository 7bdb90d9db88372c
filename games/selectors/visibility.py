"""Who may see a match: ONE rule, in one place (a selector module: reads only).

Every page, export, JSON view, the dice verification, the waiting room, profile lists, the
lobby, the websocket handshake and the bot API ask here. The rule:

- a suspended player sees nothing (not even their own matches: they cannot log in anyway);
- the two players of a match always see it;
- staff holding the permission ``games.view_any_match`` see every match;
- a **private** match is seen by nobody else (its invite link lets a guest *join* it, see
  ``/join/<code>/``, not watch it);
- otherwise spectators where the match lets them in: logged-in users when it allows
  spectators, visitors who are not logged in when it also allows anonymous spectators.

Everyone else gets a 404 that does not confirm the match exists
(:func:`match_for_viewer_or_404`). The lobby lists only matches any visitor may know of
(:func:`listed_matches`: not private).

A **chouette** follows the same rule (:func:`can_view_chouette`): a suspended player sees
none; whoever ever sat at it sees it; staff see a private one only with
``games.view_any_match`` (staff status alone is not enough); a public one is seen by anyone.
Its invite link is shown only to those seated at it, or on a public table
(:func:`may_see_chouette_invite`): staff who may watch a private table may not hand it out.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404

from games.models import Chouette, ChouetteSeat, Match, Player

VIEW_ANY = "games.view_any_match"  # the staff permission to watch any match, private included


def viewer_player(user) -> Player | None:
    """The player profile of a logged-in ``user`` (None for a visitor or a user without one)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.player
    except Player.DoesNotExist:
        return None


def _sees_all(user) -> bool:
    return (user is not None and getattr(user, "is_authenticated", False) and user.is_active
            and user.has_perm(VIEW_ANY))


def can_view_match(user, match: Match) -> bool:
    """Whether ``user`` (a Django user, AnonymousUser or None) may see ``match``."""
    player = viewer_player(user)
    if player is not None and player.suspended:
        return False
    if player is not None and match.color_of(player):
        return True
    if _sees_all(user):
        return True
    if match.private:
        return False
    if player is not None or (user is not None and getattr(user, "is_authenticated", False)):
        return match.spectators_allowed
    return match.spectators_allowed and match.anonymous_spectators


def visible_matches(user, queryset: QuerySet | None = None) -> QuerySet:
    """``queryset`` (default: every match) narrowed to those :func:`can_view_match` allows."""
    queryset = Match.objects.all() if queryset is None else queryset
    player = viewer_player(user)
    if player is not None and player.suspended:
        return queryset.none()
    if _sees_all(user):
        return queryset
    public = Q(private=False, spectators_allowed=True)
    if player is None and not getattr(user, "is_authenticated", False):
        return queryset.filter(public, anonymous_spectators=True)
    if player is None:
        return queryset.filter(public)
    return queryset.filter(Q(white=player) | Q(black=player) | public)


def listed_matches() -> QuerySet:
    """The matches the lobby may name to anyone: not private (watching still asks
    :func:`can_view_match`)."""
    return Match.objects.filter(private=False)


def match_for_viewer_or_404(user, match_id) -> Match:
    """The match ``match_id`` if ``user`` may see it, else :class:`~django.http.Http404`, the
    same answer as for a match that does not exist."""
    try:
        match = Match.objects.select_related("white", "black").filter(pk=int(match_id)).first()
    except (TypeError, ValueError, OverflowError):
        match = None
    if match is None or not can_view_match(user, match):
        raise Http404("No such match.")
    return match


# -- chouettes: the same rule ----------------------------------------------------------------------


def _sat_at(player: Player | None, chouette: Chouette) -> bool:
    return player is not None and ChouetteSeat.objects.filter(chouette=chouette, player=player).exists()


def can_view_chouette(user, chouette: Chouette) -> bool:
    """Whether ``user`` (a Django user, AnonymousUser or None) may see ``chouette``: its page,
    history, log, socket and bot-API view."""
    player = viewer_player(user)
    if player is not None and player.suspended:
        return False
    if not chouette.private or _sat_at(player, chouette):
        return True
    return _sees_all(user)


def may_see_chouette_invite(user, chouette: Chouette) -> bool:
    """Whether the table's page may carry its invite link for ``user``: a public table's link
    is in the lobby anyway; a private one's only for those seated at it."""
    if not chouette.private:
        return can_view_chouette(user, chouette)
    player = viewer_player(user)
    return (player is not None and not player.suspended
            and ChouetteSeat.objects.filter(chouette=chouette, player=player, active=True).exists())


def chouette_for_viewer_or_404(user, chouette_id) -> Chouette:
    """The chouette ``chouette_id`` if ``user`` may see it, else :class:`~django.http.Http404`,
    the same answer as for a chouette that does not exist."""
    try:
        chouette = Chouette.objects.select_related("created_by").filter(pk=int(chouette_id)).first()
    except (TypeError, ValueError, OverflowError):
        chouette = None
    if chouette is None or not can_view_chouette(user, chouette):
        raise Http404("No such chouette.")
    return chouette


__all__ = ["VIEW_ANY", "can_view_match", "visible_matches", "listed_matches", "match_for_viewer_or_404",
           "viewer_player", "can_view_chouette", "may_see_chouette_invite", "chouette_for_viewer_or_404"]

"""Moderation: suspending a player ends everything they are part of.

A suspension (an administrator's action) is one transaction that

- sets ``Player.suspended`` and deletes the player's sessions (logged out everywhere);
- **forfeits** every match the player is playing (reason ``suspended``): the opponent wins a
  match to N points (rated as any forfeit); a money session just ends. Both players get
  the usual ``forfeit`` and ``game_end`` events, which carry the reason;
- cancels the player's open matches (no opponent yet) and removes their queue entries;
- after commit, tells every socket of the player on those matches (``suspended`` notice),
  which the socket answers by closing with code 4003 (``games.consumers.game``).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.events import match_group, notice_on_commit
from games.models import Match, Player, QueueEntry
from games.services.lifecycle import MatchRecord, forfeit_match, lock_match

SUSPENDED = "suspended"


def player_set_suspended(*, player: Player, suspended: bool) -> Player:
    """Suspend or reinstate a player; a suspended player cannot log in or play, and loses
    (by forfeit) the matches they are playing (see the module's docstring)."""
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(suspended=suspended)
        player.suspended = suspended
        if suspended:
            _log_out_everywhere(player)
    if suspended:  # the flag first (no new match can start), then one transaction per match
        player_end_matches(player=player, reason=SUSPENDED)
    return player


def _log_out_everywhere(player: Player) -> None:
    from django.contrib.sessions.models import Session

    uid = str(player.user_id)
    for session in Session.objects.iterator():
        if session.get_decoded().get("_auth_user_id") == uid:
            session.delete()


def player_end_matches(*, player: Player, reason: str) -> dict:
    """Forfeit ``player``'s running matches, cancel their open ones and drop their queue
    entries, one transaction per match (the match lock first, as everywhere).
    Returns ``{"forfeited": [ids], "cancelled": [ids]}``."""
    forfeited, cancelled = [], []
    mine = Match.objects.filter(Q(white=player) | Q(black=player), status__in=[Match.OPEN, Match.PLAYING])
    for match_id in mine.order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            _end_one(match_id, player, reason, forfeited, cancelled)
    with transaction.atomic():
        QueueEntry.objects.filter(player=player).delete()
    return {"forfeited": forfeited, "cancelled": cancelled}


def _end_one(match_id, player, reason, forfeited, cancelled) -> None:
    match = lock_match(match_id)
    color = match.color_of(player.pk)
    record = MatchRecord(match)
    if match.status == Match.PLAYING:
        forfeit_match(record, match, color, reason)
        forfeited.append(match.pk)
    elif match.status == Match.OPEN:
        match.status, match.end_reason, match.finished_at = Match.ABORTED, "cancelled", timezone.now()
        match.save(update_fields=["status", "end_reason", "finished_at"])
        cancelled.append(match.pk)
    else:
        return
    record.lobby_changed()
    record.commit()
    notice_on_commit(match_group(match.pk), {"t": "suspended", "d": {"player": player.pk, "reason": reason,
                                                        "name": player.display_name}})

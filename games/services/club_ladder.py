"""A club's ladder: challenge a member up to ``ladder_reach`` places above you; the
challenge is a match (``services.matches``: created by the challenger, joined by the
defender at once) to the club's ``match_length``; when it ends (the match-end hook of
``services.lifecycle``, as tournaments learn their results) a challenger who won swaps
places with the defender. A challenge not played by its deadline is forfeited by a player
who never came (``lifecycle.forfeit_no_show``); both absent voids it. Rules: docs/CLUBS.md.

Lock order as ``services.clubs``: match rows, then player rows, then the club row.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils.translation import gettext as _, ngettext

from games import clock
from games.errors import Conflict, Forbidden
from games.models import Challenge, Club, Match, Membership, Player
from games.selectors.clubs import ladder_reach_ok
from games.services.clubs import check_member, either, lock_club
from games.services.lifecycle import BOTH_ABSENT, forfeit_no_show, lock_match, valid_id
from games.services.matches import match_create, match_join
from games.services.players import require_active


def check_challenge(club: Club, challenger: Player, defender_id) -> tuple[Membership, Membership]:
    """The two memberships, or the refusal: not a member, yourself, out of reach, one of
    the two in an open challenge already."""
    require_active(challenger)
    mine = check_member(club, challenger.pk)
    pid = valid_id(defender_id, "no_such_member", _("That player is not a member of this club."))
    theirs = check_member(club, pid, yourself=False)
    if theirs.pk == mine.pk:
        raise Conflict("own_challenge", _("You cannot challenge yourself."))
    if not ladder_reach_ok(club, mine, theirs):
        raise Conflict("out_of_range", ngettext("You can challenge a member up to %(n)s place above you.",
                                                "You can challenge a member up to %(n)s places above you.",
                                                club.ladder_reach) % {"n": club.ladder_reach})
    open_ = Challenge.objects.filter(club=club, status=Challenge.OPEN)
    if open_.filter(either(mine.player_id)).exists():
        raise Conflict("challenge_open", _("You have an open challenge already: play it first."))
    if open_.filter(either(theirs.player_id)).exists():
        raise Conflict("opponent_busy", _("That member has an open challenge already."))
    if theirs.player.suspended:
        raise Forbidden("opponent_suspended", _("That member's account is suspended."))
    return mine, theirs


def do_challenge(club: Club, mine: Membership, theirs: Membership, *, now) -> Challenge:
    """The challenge's match, started: the challenger creates it (the club's length; public,
    so that members can watch and its analysis counts on the members' page), the defender is
    seated at once, in the same transaction (the lobby never shows it open); its deadline is
    ``challenge_hours`` away."""
    created = match_create(creator=mine.player, length=club.match_length)
    match = match_join(player=theirs.player, match_id=created.pk, invite_code=created.invite_code)
    return Challenge.objects.create(
        club=club, challenger=mine.player, defender=theirs.player, match=match,
        challenger_position=mine.position, defender_position=theirs.position,
        deadline=now + timedelta(hours=club.challenge_hours))


def club_challenge(*, club_id, by: Player, defender_id, now=None) -> Challenge:
    """``by`` challenges the member ``defender_id`` on the club's ladder."""
    now = now or clock.now()
    with transaction.atomic():
        club = lock_club(club_id)
        mine, theirs = check_challenge(club, by, defender_id)
        return do_challenge(club, mine, theirs, now=now)


def apply_result(club: Club, challenge: Challenge, match: Match) -> None:
    """File the ended match on the ladder (the caller holds the club's lock)."""
    challenge.finished_at = clock.now()
    if match.status != Match.FINISHED or match.winner_id is None:
        challenge.status = Challenge.VOID
        challenge.save(update_fields=["status", "finished_at"])
        return
    challenge.status = Challenge.PLAYED
    challenge.winner_id = match.winner_id
    fields = ["status", "finished_at", "winner"]
    if match.winner_id == challenge.challenger_id:
        places = {m.player_id: m for m in Membership.objects.filter(
            club=club, player_id__in=[challenge.challenger_id, challenge.defender_id])}
        up, down = places.get(challenge.challenger_id), places.get(challenge.defender_id)
        if up is not None and down is not None and up.position > down.position:
            Membership.objects.filter(pk=up.pk).update(position=down.position)
            Membership.objects.filter(pk=down.pk).update(position=up.position)
            challenge.swapped = True
            fields.append("swapped")
    challenge.save(update_fields=fields)


def on_match_end(match: Match) -> None:
    """``lifecycle.end_match``'s hook: a challenge's match ended (the match is locked)."""
    challenge = Challenge.objects.filter(match=match, status=Challenge.OPEN).first()
    if challenge is None:
        return
    club = lock_club(challenge.club_id)
    challenge.refresh_from_db()
    if challenge.status == Challenge.OPEN:
        apply_result(club, challenge, match)


def challenge_expire(*, challenge_id: int, now=None) -> str | None:
    """At a challenge's deadline: a player who never came forfeits the match, both absent
    voids it (the match is aborted); a match both came to goes on. Returns what was done."""
    now = now or clock.now()
    with transaction.atomic():
        challenge = Challenge.objects.filter(pk=challenge_id).first()
        if challenge is None:
            return None
        match = lock_match(challenge.match_id)
        challenge.refresh_from_db()
        if challenge.status != Challenge.OPEN or match.status != Match.PLAYING or challenge.deadline > now:
            return None
        done = forfeit_no_show(match, both_reason="neither player came before the challenge's deadline")
        return "void" if done == BOTH_ABSENT else done


def club_expire_challenges(*, now=None) -> int:
    """The periodic job: every open challenge past its deadline (:func:`challenge_expire`)."""
    now = now or clock.now()
    due = Challenge.objects.filter(status=Challenge.OPEN, deadline__lte=now,
                                   match__status=Match.PLAYING).values_list("pk", flat=True)
    return sum(1 for pk in list(due) if challenge_expire(challenge_id=pk, now=now))


__all__ = ["club_challenge", "club_expire_challenges", "challenge_expire", "on_match_end", "check_challenge"]

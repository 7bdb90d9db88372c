"""Clubs: create one, join by its invite link, leave, remove a member, make or unmake an
owner, renew the invite link, change the ladder's settings, run a tournament for the club.
Each function checks (``check_*``), then does (``do_*`` or inline), under the club's row
lock; the ladder's challenges are in ``services.club_ladder``.

**Lock order** (after ``services.lifecycle``'s and ``services.tournament_play``'s): match
rows, then player rows, then a **club** row. Rules: docs/CLUBS.md.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils.translation import gettext as _

from games import clock
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Challenge, Club, Match, Membership, Player, Tournament
from games.services.lifecycle import MatchRecord, forfeit_match, lock_match, valid_id
from games.services.players import require_active
from games.services.tournaments import tournament_create
from games.text import clean_name, clean_text, name_key

MAX_NAME = 60
MAX_DESCRIPTION = 500
LIMITS = {"ladder_reach": (1, 20), "match_length": (1, 25), "challenge_hours": (1, 24 * 14)}
DEFAULTS = {"ladder_reach": 3, "match_length": 5, "challenge_hours": 72}


def new_token() -> str:
    return secrets.token_urlsafe(18)


def lock_club(club_id) -> Club:
    pk = valid_id(club_id, "club_not_found", _("No such club."))
    found = Club.objects.select_for_update(of=("self",), no_key=True).filter(pk=pk).first()
    if found is None:
        raise NotFound("club_not_found", _("No such club."))
    return found


def check_owner(club: Club, by: Player | None) -> Membership:
    """``by``'s membership, an owner's (``by`` None: the site itself, a command)."""
    member = Membership.objects.filter(club=club, player_id=getattr(by, "pk", None)).first()
    if by is not None and (member is None or member.role != Membership.OWNER):
        raise Forbidden("not_an_owner", _("Only the club's owners can do that."))
    return member


def check_member(club: Club, player_id, *, yourself: bool = True) -> Membership:
    """The membership of ``player_id``, or ``not_a_member`` (yourself) / ``no_such_member``
    (the player named by someone else)."""
    member = Membership.objects.filter(club=club, player_id=player_id).first()
    if member is None and yourself:
        raise Forbidden("not_a_member", _("You are not a member of this club."))
    if member is None:
        raise Forbidden("no_such_member", _("That player is not a member of this club."))
    return member


def check_settings(changes: dict) -> dict:
    """The ladder's settings, each a whole number in its range (``bad_setting``)."""
    out = {}
    for name, value in changes.items():
        if name not in LIMITS:
            raise BadRequest("bad_setting", _("Unknown club setting %(name)s.") % {"name": name})
        low, high = LIMITS[name]
        if type(value) is not int or not low <= value <= high:
            raise BadRequest("bad_setting", _("%(name)s is a whole number from %(low)s to %(high)s.")
                             % {"name": name, "low": low, "high": high})
        out[name] = value
    return out


def check_name(name) -> tuple[str, str]:
    name = clean_name(name, field="name", code="bad_name", max_length=MAX_NAME, reserved_ok=True)
    key = name_key(name)
    if Club.objects.filter(name_key=key).exists():
        raise Conflict("club_name_taken", _("A club of that name exists already."))
    return name, key


def club_create(*, by: Player, name, description: str = "", **settings) -> Club:
    """A new club; ``by`` is its first owner, first on its ladder."""
    require_active(by)
    if by.is_guest:
        raise Forbidden("guest_not_allowed", _("Sign up to create or join a club."))
    values = {**DEFAULTS, **check_settings(settings)}
    description = clean_text(description, field="description", code="bad_description",
                             max_length=MAX_DESCRIPTION, collapse=False, allow_empty=True).strip()
    with transaction.atomic():
        name, key = check_name(name)
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, name_key=key, description=description,
                                           invite_token=new_token(), created_by=by, **values)
        except IntegrityError:  # two clubs created with the same name at once
            raise Conflict("club_name_taken", _("A club of that name exists already.")) from None
        Membership.objects.create(club=club, player=by, role=Membership.OWNER, position=1)
        return club


def club_update(*, club_id, by: Player | None, description=None, **settings) -> Club:
    """Owners change the ladder's settings (``ladder_reach``, ``match_length``,
    ``challenge_hours``) or the description; open challenges keep theirs."""
    values = check_settings(settings)
    if description is not None:
        values["description"] = clean_text(description, field="description", code="bad_description",
                                           max_length=MAX_DESCRIPTION, collapse=False, allow_empty=True).strip()
    with transaction.atomic():
        club = lock_club(club_id)
        check_owner(club, by)
        for name, value in values.items():
            setattr(club, name, value)
        if values:
            club.save(update_fields=list(values))
        return club


def check_join(club: Club, player: Player) -> None:
    require_active(player)
    if player.is_guest:
        raise Forbidden("guest_not_allowed", _("Sign up to create or join a club."))
    if Membership.objects.filter(club=club, player=player).exists():
        raise Conflict("already_member", _("You are a member of this club already."))


def club_join(*, token, player: Player) -> Membership:
    """Join through the invite link's token: at the foot of the ladder."""
    if not isinstance(token, str) or not token:
        raise NotFound("bad_invite", _("This invite link is not valid (it may have been renewed)."))
    club_id = Club.objects.filter(invite_token=token).values_list("pk", flat=True).first()
    if club_id is None:
        raise NotFound("bad_invite", _("This invite link is not valid (it may have been renewed)."))
    with transaction.atomic():
        club = lock_club(club_id)
        if club.invite_token != token:  # renewed in between
            raise NotFound("bad_invite", _("This invite link is not valid (it may have been renewed)."))
        check_join(club, player)
        last = Membership.objects.filter(club=club).count()
        return Membership.objects.create(club=club, player=player, role=Membership.MEMBER, position=last + 1)


def club_renew_invite(*, club_id, by: Player | None) -> Club:
    """A new invite token: the old link stops working."""
    with transaction.atomic():
        club = lock_club(club_id)
        check_owner(club, by)
        club.invite_token = new_token()
        club.save(update_fields=["invite_token"])
        return club


def _open_challenge_matches(club_id: int, player_id: int) -> list:
    return sorted(Challenge.objects.filter(club_id=club_id, status=Challenge.OPEN)
                  .filter(either(player_id)).values_list("match_id", flat=True))


def either(player_id: int) -> Q:
    return Q(challenger_id=player_id) | Q(defender_id=player_id)


def do_remove(club: Club, member: Membership, locked: list) -> None:
    """Take ``member`` off the club: an open challenge of theirs is void and its match
    forfeited by them (the caller locked those matches, ``locked``, before the club); the
    places below move up one."""
    challenges = list(Challenge.objects.filter(club=club, status=Challenge.OPEN).filter(either(member.player_id)))
    if any(c.match_id not in locked for c in challenges):  # challenged between the two locks
        raise Conflict("club_busy", _("The club's ladder changed meanwhile: try again."))
    for challenge in challenges:
        challenge.status = Challenge.VOID
        challenge.finished_at = clock.now()
        challenge.save(update_fields=["status", "finished_at"])
        match = lock_match(challenge.match_id)
        if match.status == Match.PLAYING:
            record = MatchRecord(match)
            forfeit_match(record, match, match.color_of(member.player_id), "forfeit")
            record.lobby_changed()
            record.commit()
    position = member.position
    member.delete()
    Membership.objects.filter(club=club, position__gt=position).update(position=F("position") - 1)


def _leave_or_remove(club_id, player_id: int, by: Player | None) -> None:
    pk = valid_id(club_id, "club_not_found", _("No such club."))
    with transaction.atomic():
        locked = _open_challenge_matches(pk, player_id)
        for match_id in locked:  # lock order: matches, then the club
            lock_match(match_id)
        club = lock_club(pk)
        if by is not None and by.pk != player_id:
            check_owner(club, by)
        member = check_member(club, player_id, yourself=by is None or by.pk == player_id)
        if member.role == Membership.OWNER:
            if by is not None and by.pk != player_id:
                raise Conflict("cannot_remove_owner", _("An owner cannot be removed: make them a member first."))
            if not Membership.objects.filter(club=club, role=Membership.OWNER).exclude(pk=member.pk).exists():
                raise Conflict("last_owner", _("You are the club's last owner: make another member an owner first."))
        do_remove(club, member, locked)


def club_leave(*, club_id, player: Player) -> None:
    """``player`` leaves the club (the last owner cannot)."""
    _leave_or_remove(club_id, player.pk, player)


def club_remove_member(*, club_id, by: Player | None, player_id) -> None:
    """An owner takes a member off the club (not another owner)."""
    pid = valid_id(player_id, "no_such_member", _("That player is not a member of this club."))
    if by is not None and by.pk == pid:
        raise BadRequest("use_leave", _("To leave the club yourself, use Leave."))
    _leave_or_remove(club_id, pid, by)


def club_set_role(*, club_id, by: Player | None, player_id, role) -> Membership:
    """An owner makes a member an owner, or an owner a member (never the last owner)."""
    if role not in (Membership.OWNER, Membership.MEMBER):
        raise BadRequest("bad_role", _("A role is owner or member."))
    pid = valid_id(player_id, "no_such_member", _("That player is not a member of this club."))
    with transaction.atomic():
        club = lock_club(club_id)
        check_owner(club, by)
        member = check_member(club, pid, yourself=False)
        if (role == Membership.MEMBER and member.role == Membership.OWNER
                and not Membership.objects.filter(club=club, role=Membership.OWNER).exclude(pk=member.pk).exists()):
            raise Conflict("last_owner", _("A club keeps at least one owner."))
        member.role = role
        member.save(update_fields=["role"])
        return member


def club_tournament_create(*, club_id, by: Player | None, **options) -> Tournament:
    """A tournament run for the club (``services.tournaments.tournament_create``'s
    arguments); the club's owners direct it (``selectors.clubs.club_directs``)."""
    with transaction.atomic():
        club = lock_club(club_id)
        check_owner(club, by)
        tournament = tournament_create(by=by, **options)
        tournament.club = club
        tournament.save(update_fields=["club"])
        return tournament


__all__ = ["club_create", "club_update", "club_join", "club_leave", "club_remove_member", "club_renew_invite",
           "club_set_role", "club_tournament_create", "lock_club", "check_owner", "check_member"]

"""Tournaments: create one, enter and withdraw, start it (the draw), fill it with house
bots. Each function checks, then does, under the tournament's row lock (the lock order
is in ``services.tournament_play``); the running event is driven there.

The rules are docs/TOURNAMENTS.md (the pure ones, then "On the site").
"""

from __future__ import annotations

import random
import secrets

from django.db import IntegrityError, transaction

from games import clock
from games.errors import BadRequest, Conflict, Forbidden
from games.models import Entry, Player, Tournament
from games.selectors.clubs import club_directs
from games.services.agents import house_bot
from games.services.lifecycle import MatchRecord, forfeit_match, lock_match, valid_id
from games.services.players import require_active
from games.services.tournament_play import advance, bump, check, event_of, lock_tournament, running_links
from games.tournament import FORMATS, TournamentError, new_event
from games.tournament.records import Entrant
from django.utils.translation import gettext

MAX_NAME = 80
MAX_ENTRANTS = 1024
MAX_DEADLINE_HOURS = 24 * 14
# Options of the site, not of the pure event: the match's cube and Crawford rule, whether
# it is rated, how long an arena lasts.
SITE_OPTIONS = {"cube": True, "crawford": True, "rated": True, "minutes": 60}


def is_director(tournament: Tournament, player) -> bool:
    """Whether ``player`` runs ``tournament``: one of its directors, an owner of its club, or staff."""
    if player is None:
        return False
    if getattr(getattr(player, "user", None), "is_staff", False):
        return True
    return tournament.directors.filter(pk=player.pk).exists() or club_directs(player, tournament)


def _require_director(tournament: Tournament, by) -> None:
    """``by`` None is the site itself (a command, a periodic job)."""
    if by is not None and not is_director(tournament, by):
        raise Forbidden("not_a_director", gettext("Only the tournament's directors can do that."))


def pure_options(format: str, options: dict, *, start=None) -> dict:
    """The pure event's options from the stored ones (the site's own taken out; an
    arena's window from its start and ``minutes``)."""
    out = {k: v for k, v in options.items() if k not in SITE_OPTIONS}
    if format == "arena":
        begin = (start or clock.now()).timestamp()
        out.update(start=begin, end=begin + 60 * options.get("minutes", SITE_OPTIONS["minutes"]))
    return out


def _check_options(format: str, options) -> dict:
    if format not in FORMATS:
        raise BadRequest("bad_format", gettext("A format is one of %(values)s.") % {"values": ', '.join(FORMATS)})
    if not isinstance(options, dict):
        raise BadRequest("bad_option", gettext("Options are a JSON object."))
    for name in ("cube", "crawford", "rated"):
        if name in options and type(options[name]) is not bool:
            raise BadRequest("bad_option", gettext("'%(name)s' must be true or false.") % {"name": name})
    minutes = options.get("minutes", 60)
    if type(minutes) is not int or not 1 <= minutes <= 24 * 60:
        raise BadRequest("bad_option", gettext("'minutes' (an arena's length) is a whole number from 1 to 1440."))
    try:
        FORMATS[format].OPTIONS.from_dict(pure_options(format, options))
    except TournamentError as exc:
        raise BadRequest(exc.code, str(exc)) from None
    return options


def tournament_create(*, by: Player | None, name, format, length: int = 7, options=None, starts_at=None,
                      round_deadline_hours: int = 0, max_entrants=None) -> Tournament:
    """A tournament open for entries. ``options`` are the format's (docs/TOURNAMENTS.md;
    camelCase: ``rounds``, ``seeding``, ``consolation``...) plus the site's (``cube``,
    ``crawford``, ``rated``, ``minutes`` of an arena); ``length`` is the default match
    length. ``by`` (None: the site) becomes its first director."""
    if by is not None:
        require_active(by)
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise BadRequest("bad_name", gettext("A tournament's name is 1 to %(MAX_NAME)s characters.")
                % {"MAX_NAME": MAX_NAME})
    if type(length) is not int or not 1 <= length <= 99:
        raise BadRequest("bad_length", gettext("The match length is a whole number of points from 1 to 99."))
    options = dict(options or {})
    lengths = dict(options.get("lengths") or {})
    lengths.setdefault("default", length)
    options["lengths"] = lengths
    options = _check_options(format, options)
    if type(round_deadline_hours) is not int or not 0 <= round_deadline_hours <= MAX_DEADLINE_HOURS:
        raise BadRequest("bad_deadline", gettext("The round deadline is a whole number of hours from 0 to %(MAX_DEADLINE_HOURS)s.")
                % {"MAX_DEADLINE_HOURS": MAX_DEADLINE_HOURS})
    if max_entrants is not None and (type(max_entrants) is not int or not 2 <= max_entrants <= MAX_ENTRANTS):
        raise BadRequest("bad_limit", gettext("The entry limit is a whole number from 2 to %(MAX_ENTRANTS)s.")
                % {"MAX_ENTRANTS": MAX_ENTRANTS})
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(), format=format, options=options, created_by=by, starts_at=starts_at,
            round_deadline_hours=round_deadline_hours, max_entrants=max_entrants)
        if by is not None:
            tournament.directors.add(by)
    return tournament


def tournament_enter(*, tournament_id, player: Player, by: Player | None = None) -> Entry:
    """Enter ``player`` (``by``: a director entering someone else, a house bot say)."""
    require_active(player)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if by is not None and by.pk != player.pk:
            _require_director(tournament, by)
        if tournament.status != Tournament.REGISTERING:
            raise Conflict("registration_closed", gettext("This tournament takes no more entries."))
        entry = Entry.objects.filter(tournament=tournament, player=player).first()
        if entry is not None and entry.status == Entry.ENTERED:
            raise Conflict("already_entered", gettext("You are entered already."))
        count = Entry.objects.filter(tournament=tournament, status=Entry.ENTERED).count()
        if tournament.max_entrants is not None and count >= tournament.max_entrants:
            raise Conflict("tournament_full", gettext("This tournament is full (%(max_entrants)s entrants).")
                    % {"max_entrants": tournament.max_entrants})
        if entry is None:
            try:
                with transaction.atomic():
                    entry = Entry.objects.create(tournament=tournament, player=player)
            except IntegrityError:  # pragma: no cover - the tournament's lock serialises entries
                raise Conflict("already_entered", gettext("You are entered already.")) from None
        else:
            entry.status = Entry.ENTERED
            entry.save(update_fields=["status"])
        bump(tournament)
        return entry


def tournament_add_bots(*, tournament_id, level, count: int, by: Player | None = None) -> list:
    """A director fills the field with ``count`` house bots of ``level`` (numbers 1, 2...
    of the level not entered yet)."""
    if type(count) is not int or not 1 <= count <= MAX_ENTRANTS:
        raise BadRequest("bad_count", gettext("The number of bots is a whole number from 1 to %(MAX_ENTRANTS)s.")
                % {"MAX_ENTRANTS": MAX_ENTRANTS})
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _require_director(tournament, by)
        entered = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
        out, number = [], 0
        while len(out) < count:
            number += 1
            bot = house_bot(level=level, number=number)
            if bot.pk not in entered:
                out.append(tournament_enter(tournament_id=tournament.pk, player=bot))
        return out


def tournament_withdraw(*, tournament_id, player: Player, by: Player | None = None) -> Entry:
    """``player`` leaves (``by``: a director withdrawing them). Before the start the entry
    is just marked; once running, the match they are playing is forfeited to the opponent
    and the event withdraws them (docs/TOURNAMENTS.md, "Withdrawals")."""
    with transaction.atomic():
        pk = valid_id(tournament_id, "tournament_not_found", gettext("No such tournament."))
        # lock order: the player's running matches of the event first, then the tournament
        for match_id in sorted(running_links(pk, player.pk)):
            lock_match(match_id)
        tournament = lock_tournament(tournament_id)
        if by is not None and by.pk != player.pk:
            _require_director(tournament, by)
        entry = Entry.objects.filter(tournament=tournament, player=player, status=Entry.ENTERED).first()
        if entry is None:
            raise Conflict("not_entered", gettext("You are not entered in this tournament."))
        if tournament.status in (Tournament.FINISHED, Tournament.CANCELLED):
            raise Conflict("tournament_over", gettext("This tournament is over."))
        entry.status = Entry.WITHDRAWN
        entry.save(update_fields=["status"])
        if tournament.status == Tournament.RUNNING:
            for match_id in sorted(running_links(tournament.pk, player.pk)):
                match = lock_match(match_id)
                record = MatchRecord(match)
                forfeit_match(record, match, match.color_of(player.pk), "withdrawn")
                record.lobby_changed()
                record.commit()  # the match's end files the forfeit (tournament_play.on_match_end)
            tournament.refresh_from_db()
            if tournament.status == Tournament.RUNNING:
                advance(tournament, event_of(tournament))
        else:
            bump(tournament)
        return entry


def tournament_start(*, tournament_id, by: Player | None = None, now=None) -> Tournament:
    """Close the entries and make the draw (the seeding of the options; a random draw
    keeps its seed); every first pairing's match starts at once."""
    now = now or clock.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _require_director(tournament, by)
        if tournament.status != Tournament.REGISTERING:
            raise Conflict("already_started", gettext("This tournament has started already."))
        entries = (Entry.objects.filter(tournament=tournament, status=Entry.ENTERED).select_related("player")
                   .order_by("pk"))
        entrants = [Entrant(e.player_id, rating=float(e.player.rating)) for e in entries]
        seed = secrets.token_hex(8)
        options = pure_options(tournament.format, tournament.options, start=now)
        event = check(new_event, tournament.format, entrants, options, rng=random.Random(seed))
        tournament.status = Tournament.RUNNING
        tournament.started_at = now
        tournament.draw_seed = seed
        tournament.save(update_fields=["status", "started_at", "draw_seed"])
        advance(tournament, event, now=now)
        return tournament


def tournament_start_due(*, now=None) -> int:
    """The periodic job: start every tournament whose start time has come; one with too
    few entrants is cancelled."""
    now = now or clock.now()
    started = 0
    for pk in list(Tournament.objects.filter(status=Tournament.REGISTERING, starts_at__lte=now)
                   .values_list("pk", flat=True)):
        try:
            tournament_start(tournament_id=pk, now=now)
            started += 1
        except Conflict as exc:
            if exc.code == "too_few_entrants":
                Tournament.objects.filter(pk=pk, status=Tournament.REGISTERING).update(
                    status=Tournament.CANCELLED, finished_at=now)
    return started


def tournament_cancel(*, tournament_id, by: Player | None = None) -> Tournament:
    """Cancel a tournament that has not started."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _require_director(tournament, by)
        if tournament.status != Tournament.REGISTERING:
            raise Conflict("already_started", gettext("Only a tournament that has not started can be cancelled."))
        tournament.status = Tournament.CANCELLED
        tournament.finished_at = clock.now()
        tournament.save(update_fields=["status", "finished_at"])
        bump(tournament)
        return tournament


__all__ = ["tournament_create", "tournament_enter", "tournament_add_bots", "tournament_withdraw",
           "tournament_start", "tournament_start_due", "tournament_cancel", "is_director"]

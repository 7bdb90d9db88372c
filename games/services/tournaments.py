"""Tournaments: create one, enter and withdraw, start it (the draw), fill it with house
bots. Each function checks, then does, under the tournament's row lock (the lock order
is in ``services.tournament_play``); the running event is driven there.

The rules are docs/TOURNAMENTS.md (the pure ones, then "On the site").
"""

from __future__ import annotations

import random
import secrets

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import clock
from games.errors import BadRequest, Conflict, Forbidden
from games.models import DirectorAction, Entry, Player, Tournament
from games.selectors.tournaments import is_director, late_open, waiting_order
from games.services.agents import house_bot
from games.services.lifecycle import MatchRecord, forfeit_match, lock_match, valid_id
from games.services.matches import check_correspondence
from games.services.players import require_active
from games.services.tournament_director import clean_reason, log, player_by_id, require_director
from games.services.tournament_play import advance, bump, check, event_of, lock_tournament, running_links
from games.tournament import FORMATS, Arena, TournamentError, new_event
from games.tournament.records import Entrant

MAX_NAME = 80
MAX_ENTRANTS = 1024
MAX_DEADLINE_HOURS = 24 * 14
MAX_CHECK_IN_MINUTES = 24 * 60
MAX_RATING = 5000
LATE_FORMATS = ("swiss", "arena")  # the formats that take entries once running
# Options of the site, not of the pure event: the match's cube and Crawford rule, whether
# it is rated, how long an arena lasts.
# ``clock``: the name of a live clock preset (``games.clock.CLOCK_PRESETS``) its matches get.
SITE_OPTIONS = {"cube": True, "crawford": True, "rated": True, "minutes": 60, "clock": None}


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
        raise BadRequest("bad_format", _("A format is one of %(values)s.") % {"values": ', '.join(FORMATS)})
    if not isinstance(options, dict):
        raise BadRequest("bad_option", _("Options are a JSON object."))
    for name in ("cube", "crawford", "rated"):
        if name in options and type(options[name]) is not bool:
            raise BadRequest("bad_option", _("'%(name)s' must be true or false.") % {"name": name})
    if options.get("clock") is not None and clock.preset(options["clock"]) is None:
        raise BadRequest("bad_clock_preset", _("A clock is one of %(values)s.")
                         % {"values": ", ".join(clock.CLOCK_PRESETS)})
    minutes = options.get("minutes", 60)
    if type(minutes) is not int or not 1 <= minutes <= 24 * 60:
        raise BadRequest("bad_option", _("'minutes' (an arena's length) is a whole number from 1 to 1440."))
    try:
        FORMATS[format].OPTIONS.from_dict(pure_options(format, options))
    except TournamentError as exc:
        raise BadRequest(exc.code, str(exc)) from None
    return options


def _check_registration(format, *, starts_at, min_rating, max_rating, check_in_minutes, late_entries) -> None:
    for value in (min_rating, max_rating):
        if value is not None and (type(value) is not int or not 0 <= value <= MAX_RATING):
            raise BadRequest("bad_rating_band", _("A rating bound is a whole number from 0 to %(n)s.") % {"n": MAX_RATING})
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise BadRequest("bad_rating_band", _("The lowest rating is above the highest."))
    if type(check_in_minutes) is not int or not 0 <= check_in_minutes <= MAX_CHECK_IN_MINUTES:
        raise BadRequest("bad_check_in", _("Check-in is a whole number of minutes from 0 to %(n)s.")
                         % {"n": MAX_CHECK_IN_MINUTES})
    if check_in_minutes and starts_at is None:
        raise BadRequest("bad_check_in", _("Check-in needs a start time."))
    if type(late_entries) is not bool:
        raise BadRequest("bad_option", _("'late_entries' must be true or false."))
    if late_entries and format not in LATE_FORMATS:
        raise BadRequest("late_entries_not_allowed", _("Only a Swiss or an arena takes late entries."))


def tournament_create_site(*, by: Player, **options) -> Tournament:
    """A site tournament created by a player (the bot API): staff only (a club's owners
    create the club's with ``club_tournament_create``); ``tournament_create``'s arguments."""
    if not getattr(getattr(by, "user", None), "is_staff", False):
        raise Forbidden("not_allowed", _("Only staff create the site's tournaments; a club's owners create the club's."))
    return tournament_create(by=by, **options)


def tournament_create(*, by: Player | None, name, format, length: int = 7, options=None, starts_at=None,
                      round_deadline_hours: int = 0, max_entrants=None, min_rating=None, max_rating=None,
                      check_in_minutes: int = 0, late_entries: bool = False, corr_days: int = 0,
                      corr_bank_days: int = 0, clock_preset: str | None = None) -> Tournament:
    """A tournament open for entries. ``options`` are the format's (docs/TOURNAMENTS.md;
    camelCase: ``rounds``, ``seeding``, ``consolation``...) plus the site's (``cube``,
    ``crawford``, ``rated``, ``minutes`` of an arena); ``length`` is the default match
    length. ``by`` (None: the site) becomes its first director. Registration: a limit with
    a waiting list, a rating band, check-in ``check_in_minutes`` before ``starts_at``, late
    entries (Swiss, arena). ``corr_days`` / ``corr_bank_days``: its matches are played by
    correspondence (docs/TOURNAMENTS.md); ``clock_preset``: the live clock of its matches, a
    name of ``games.clock.CLOCK_PRESETS`` (``bad_clock_preset`` otherwise)."""
    if by is not None:
        require_active(by)
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise BadRequest("bad_name", _("A tournament's name is 1 to %(MAX_NAME)s characters.")
                % {"MAX_NAME": MAX_NAME})
    if type(length) is not int or not 1 <= length <= 99:
        raise BadRequest("bad_length", _("The match length is a whole number of points from 1 to 99."))
    if options is not None and not isinstance(options, dict):
        raise BadRequest("bad_option", _("Options are a JSON object."))
    options = dict(options or {})
    if not isinstance(options.get("lengths") or {}, dict):
        raise BadRequest("bad_option", _("Options are a JSON object."))
    lengths = dict(options.get("lengths") or {})
    lengths.setdefault("default", length)
    options["lengths"] = lengths
    if clock_preset not in (None, ""):
        options["clock"] = clock_preset
    options = _check_options(format, options)
    if type(round_deadline_hours) is not int or not 0 <= round_deadline_hours <= MAX_DEADLINE_HOURS:
        raise BadRequest("bad_deadline", _("The round deadline is a whole number of hours from 0 to %(MAX_DEADLINE_HOURS)s.")
                % {"MAX_DEADLINE_HOURS": MAX_DEADLINE_HOURS})
    if max_entrants is not None and (type(max_entrants) is not int or not 2 <= max_entrants <= MAX_ENTRANTS):
        raise BadRequest("bad_limit", _("The entry limit is a whole number from 2 to %(MAX_ENTRANTS)s.")
                % {"MAX_ENTRANTS": MAX_ENTRANTS})
    _check_registration(format, starts_at=starts_at, min_rating=min_rating, max_rating=max_rating,
                        check_in_minutes=check_in_minutes, late_entries=late_entries)
    check_correspondence(corr_days, corr_bank_days, live=False)
    if corr_days and format == "arena":
        raise BadRequest("bad_clock", _("An arena is played live, not by correspondence."))
    if corr_days and options.get("clock") is not None:
        raise BadRequest("bad_clock", _("A tournament played by correspondence has no live clock."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(), format=format, options=options, created_by=by, starts_at=starts_at,
            round_deadline_hours=round_deadline_hours, max_entrants=max_entrants, min_rating=min_rating,
            max_rating=max_rating, check_in_minutes=check_in_minutes, late_entries=late_entries,
            corr_days=corr_days, corr_bank_days=corr_bank_days)
        if by is not None:
            tournament.directors.add(by)
    return tournament


def check_enter(tournament: Tournament, player: Player, entry: Entry | None, by) -> None:
    if by is not None and by.pk != player.pk:
        require_director(tournament, by)
    if tournament.status != Tournament.REGISTERING and not late_open(tournament):
        raise Conflict("registration_closed", _("This tournament takes no more entries."))
    if entry is not None and entry.status in (Entry.ENTERED, Entry.WAITING):
        raise Conflict("already_entered", _("You are entered already."))
    if entry is not None and entry.status == Entry.DISQUALIFIED:
        raise Conflict("disqualified", _("You were disqualified from this tournament."))
    rating = round(player.rating)
    if ((tournament.min_rating is not None and rating < tournament.min_rating)
            or (tournament.max_rating is not None and rating > tournament.max_rating)):
        raise Conflict("out_of_band", _("This tournament is for ratings from %(low)s to %(high)s.") % {
            "low": tournament.min_rating or 0, "high": tournament.max_rating or "\u221e"})


def tournament_enter(*, tournament_id, player: Player, by: Player | None = None) -> Entry:
    """Enter ``player`` (``by``: a director entering someone else, a house bot say). A full
    tournament puts them on its waiting list (``status`` "waiting"); a running Swiss or
    arena that takes late entries adds them to the event."""
    require_active(player)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, player=player).first()
        check_enter(tournament, player, entry, by)
        count = Entry.objects.filter(tournament=tournament, status=Entry.ENTERED).count()
        full = tournament.max_entrants is not None and count >= tournament.max_entrants
        if full and tournament.status != Tournament.REGISTERING:
            raise Conflict("tournament_full", _("This tournament is full (%(max_entrants)s entrants).")
                    % {"max_entrants": tournament.max_entrants})
        status = Entry.WAITING if full else Entry.ENTERED
        if entry is None:
            try:
                with transaction.atomic():
                    entry = Entry.objects.create(tournament=tournament, player=player, status=status,
                                                 queued_at=clock.now() if full else None)
            except IntegrityError:  # pragma: no cover - the tournament's lock serialises entries
                raise Conflict("already_entered", _(_("You are entered already."))) from None
        else:
            entry.status, entry.queued_at, entry.checked_in_at = status, clock.now() if full else None, None
            entry.save(update_fields=["status", "queued_at", "checked_in_at"])
        if tournament.status == Tournament.RUNNING:
            advance(tournament, _late_entry(tournament, player))
        else:
            bump(tournament)
        return entry


def _late_entry(tournament: Tournament, player: Player):
    event, entrant = event_of(tournament), Entrant(player.pk, rating=float(player.rating))
    if isinstance(event, Arena):
        return check(event.join, entrant, clock.now().timestamp())
    return check(event.add_entrant, entrant)


def tournament_check_in(*, tournament_id, player: Player, now=None) -> Entry:
    """Check in before the start (from ``check_in_minutes`` before it); an entrant not
    checked in by the start is removed and the waiting list moves up."""
    now = now or clock.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, player=player,
                                     status__in=(Entry.ENTERED, Entry.WAITING)).first()
        if entry is None:
            raise Conflict("not_entered", _("You are not entered in this tournament."))
        if tournament.status != Tournament.REGISTERING or not tournament.check_in_minutes:
            raise Conflict("no_check_in", _("This tournament has no check-in open."))
        opens = tournament.starts_at - timedelta(minutes=tournament.check_in_minutes)
        if now < opens:
            raise Conflict("check_in_not_open", _("Check-in opens at %(at)s UTC.") % {"at": f"{opens:%Y-%m-%d %H:%M}"})
        if entry.checked_in_at is not None:
            raise Conflict("already_checked_in", _("You are checked in already."))
        entry.checked_in_at = now
        entry.save(update_fields=["checked_in_at"])
        bump(tournament)
        return entry


def promote(tournament: Tournament, *, checked_in_only: bool = False) -> list:
    """Fill the free places from the waiting list, in the order they joined it (at the
    start of a tournament with check-in, only those who checked in)."""
    free = (None if tournament.max_entrants is None else
            tournament.max_entrants - Entry.objects.filter(tournament=tournament, status=Entry.ENTERED).count())
    waiting = sorted(Entry.objects.filter(tournament=tournament, status=Entry.WAITING), key=waiting_order)
    if checked_in_only:
        waiting = [e for e in waiting if e.checked_in_at is not None]
    moved = waiting if free is None else waiting[:max(0, free)]
    for entry in moved:
        entry.status = Entry.ENTERED
        entry.save(update_fields=["status"])
        log(tournament, DirectorAction.PROMOTED, player=entry.player)
    return moved


def tournament_add_bots(*, tournament_id, level, count: int, by: Player | None = None) -> list:
    """A director fills the field with ``count`` house bots of ``level`` (numbers 1, 2...
    of the level not entered yet)."""
    if type(count) is not int or not 1 <= count <= MAX_ENTRANTS:
        raise BadRequest("bad_count", _("The number of bots is a whole number from 1 to %(MAX_ENTRANTS)s.")
                % {"MAX_ENTRANTS": MAX_ENTRANTS})
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        require_director(tournament, by)
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
    is just marked and the first of the waiting list takes the place; once running, the
    match they are playing is forfeited to the opponent and the event withdraws them
    (docs/TOURNAMENTS.md, "Withdrawals")."""
    director = by is not None and by.pk != player.pk
    return remove_entrant(tournament_id=tournament_id, player=player, by=by, status=Entry.WITHDRAWN,
                          director=director)


def tournament_director_withdraw(*, tournament_id, player_id, by: Player | None, reason=None) -> Entry:
    """A director withdraws a player (logged)."""
    return director_remove(tournament_id, player_id, by, reason, status=Entry.WITHDRAWN)


def tournament_disqualify(*, tournament_id, player_id, by: Player | None, reason=None) -> Entry:
    """Disqualify a player: as a withdrawal (the match being played is forfeited to the
    opponent, no more pairings, the results so far stand, no entering again), logged."""
    return director_remove(tournament_id, player_id, by, reason, status=Entry.DISQUALIFIED)


def director_remove(tournament_id, player_id, by, reason, *, status: str) -> Entry:
    """A director's withdrawal or disqualification: the player and the reason checked, then
    the same checks and steps as a player's own withdrawal (:func:`remove_entrant`), logged."""
    return remove_entrant(tournament_id=tournament_id, player=player_by_id(player_id), by=by,
                          reason=clean_reason(reason), status=status, director=True)


def check_remove(tournament: Tournament, player: Player, by, *, director: bool) -> Entry:
    """The entry ``player`` leaves by (refused: ``not_a_director``, ``not_entered``,
    ``tournament_over``)."""
    if director:
        require_director(tournament, by)
    entry = Entry.objects.filter(tournament=tournament, player=player, status__in=(Entry.ENTERED, Entry.WAITING)).first()
    if entry is None:
        raise Conflict("not_entered", _("You are not entered in this tournament."))
    if tournament.status in (Tournament.FINISHED, Tournament.CANCELLED):
        raise Conflict("tournament_over", _("This tournament is over."))
    return entry


def do_remove(tournament: Tournament, entry: Entry, by, *, status: str, director: bool, reason: str) -> None:
    """Mark the entry, log a director's action, forfeit the running match (its end files
    the forfeit: ``tournament_play.on_match_end``) and let the event withdraw the player; before
    the start, the waiting list moves up."""
    was, player = entry.status, entry.player
    entry.status = status
    entry.save(update_fields=["status"])
    if director:
        action = DirectorAction.DISQUALIFY if status == Entry.DISQUALIFIED else DirectorAction.WITHDRAW
        log(tournament, action, by=by, player=player, reason=reason)
    if tournament.status == Tournament.RUNNING and was == Entry.ENTERED:
        for match_id in sorted(running_links(tournament.pk, player.pk)):
            match = lock_match(match_id)
            record = MatchRecord(match)
            forfeit_match(record, match, match.color_of(player.pk), status)
            record.lobby_changed()
            record.commit()
        tournament.refresh_from_db()
        if tournament.status == Tournament.RUNNING:
            advance(tournament, event_of(tournament))
        return
    if was == Entry.ENTERED and tournament.status == Tournament.REGISTERING:
        promote(tournament)
    bump(tournament)


def remove_entrant(*, tournament_id, player: Player, by, status: str, director: bool, reason: str = "") -> Entry:
    """Take ``player`` out (``status``: withdrawn or disqualified); ``director``: a
    director's action, checked and logged."""
    with transaction.atomic():
        pk = valid_id(tournament_id, "tournament_not_found", _("No such tournament."))
        # lock order: the player's running matches of the event first, then the tournament
        for match_id in sorted(running_links(pk, player.pk)):
            lock_match(match_id)
        tournament = lock_tournament(tournament_id)
        entry = check_remove(tournament, player, by, director=director)
        do_remove(tournament, entry, by, status=status, director=director, reason=reason)
        return entry


def tournament_start(*, tournament_id, by: Player | None = None, now=None) -> Tournament:
    """Close the entries and make the draw (the seeding of the options; a random draw
    keeps its seed); every first pairing's match starts at once."""
    now = now or clock.now()
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        require_director(tournament, by)
        if tournament.status != Tournament.REGISTERING:
            raise Conflict("already_started", _("This tournament has started already."))
        if tournament.check_in_minutes:
            for entry in Entry.objects.filter(tournament=tournament, status=Entry.ENTERED, checked_in_at__isnull=True,
                                              player__housebot__isnull=True).select_related("player"):
                entry.status = Entry.REMOVED
                entry.save(update_fields=["status"])
                log(tournament, DirectorAction.CHECK_IN_REMOVED, player=entry.player)
            promote(tournament, checked_in_only=True)
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
    """The periodic job: start every tournament whose start time has come (not one a
    director paused); one with too few entrants is cancelled."""
    now = now or clock.now()
    started = 0
    for pk in list(Tournament.objects.filter(status=Tournament.REGISTERING, starts_at__lte=now, paused_at__isnull=True)
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
        require_director(tournament, by)
        if tournament.status != Tournament.REGISTERING:
            raise Conflict("already_started", _("Only a tournament that has not started can be cancelled."))
        tournament.status = Tournament.CANCELLED
        tournament.finished_at = clock.now()
        tournament.save(update_fields=["status", "finished_at"])
        bump(tournament)
        return tournament


__all__ = ["tournament_create", "tournament_create_site", "tournament_enter", "tournament_add_bots", "tournament_withdraw",
           "tournament_start", "tournament_start_due", "tournament_cancel", "is_director", "tournament_check_in",
           "tournament_director_withdraw", "tournament_disqualify", "remove_entrant", "promote"]

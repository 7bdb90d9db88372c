"""Recurring tournaments: a template repeated on an iCalendar RRULE (python-dateutil's
``rrulestr``), e.g. every Tuesday at 20:00. The periodic job (:func:`series_schedule`) makes
each occurrence a tournament open for entries ``lead_hours`` before its start; the
tournament then starts at its time like any other (``tournament_start_due``).
"""

from __future__ import annotations

from datetime import timedelta, timezone as dt_timezone

from dateutil.rrule import rrulestr
from django.db import transaction

from games import clock
from games.errors import BadRequest
from games.models import Player, TournamentSeries
from games.services.players import require_active
from games.services.tournaments import tournament_create
from django.utils.translation import gettext

MAX_RULE = 200
MAX_LEAD_HOURS = 24 * 30


def rule_of(text: str, first_start):
    """The dateutil rule of ``text`` from ``first_start`` (``bad_rrule`` when it cannot be read)."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_RULE:
        raise BadRequest("bad_rrule", gettext("A schedule is an iCalendar RRULE of at most %(MAX_RULE)s characters.")
                % {"MAX_RULE": MAX_RULE})
    text = text.strip()
    if text.upper().startswith("RRULE:"):
        text = text[len("RRULE:"):]
    if "DTSTART" in text.upper() or "\n" in text:
        raise BadRequest("bad_rrule", gettext("Give the rule alone (FREQ=...); the first start is its own field."))
    try:
        return rrulestr(text, dtstart=first_start)
    except (ValueError, TypeError) as exc:
        raise BadRequest("bad_rrule", gettext("That is not an RRULE dateutil can read (%(exc)s).")
                % {"exc": exc}) from None


def next_start(series: TournamentSeries, after):
    """The series' first occurrence strictly after ``after`` (None: the rule has ended)."""
    return rule_of(series.rrule, series.first_start).after(after, inc=False)


def tournament_series_create(*, by: Player | None, name, format, length: int = 7, options=None, rrule,
                             first_start, lead_hours: int = 24, round_deadline_hours: int = 0,
                             max_entrants=None) -> TournamentSeries:
    """A recurring tournament. Its template is checked as :func:`tournament_create` checks a
    tournament (the same codes); ``rrule`` must give at least one occurrence."""
    if by is not None:
        require_active(by)
    if first_start is None or first_start.tzinfo is None:
        raise BadRequest("bad_start", gettext("The first start is a time with its time zone."))
    first_start = first_start.astimezone(dt_timezone.utc)
    rule = rule_of(rrule, first_start)
    if rule.after(first_start, inc=True) is None:
        raise BadRequest("bad_rrule", gettext("That schedule has no occurrence."))
    if type(lead_hours) is not int or not 0 <= lead_hours <= MAX_LEAD_HOURS:
        raise BadRequest("bad_lead", gettext("The lead is a whole number of hours from 0 to %(MAX_LEAD_HOURS)s.")
                % {"MAX_LEAD_HOURS": MAX_LEAD_HOURS})
    with transaction.atomic():
        probe = tournament_create(by=by, name=name, format=format, length=length, options=options,
                                  round_deadline_hours=round_deadline_hours, max_entrants=max_entrants)
        template = {"name": probe.name, "format": probe.format, "options": probe.options}
        probe.delete()  # the checks of a tournament, kept: the template is a tournament's fields
        return TournamentSeries.objects.create(
            **template, rrule=rrule.strip(), first_start=first_start, lead_hours=lead_hours,
            round_deadline_hours=round_deadline_hours, max_entrants=max_entrants, created_by=by)


def series_schedule(*, now=None) -> int:
    """The periodic job: every active series whose next occurrence is less than its lead
    away gets that occurrence's tournament (occurrences already past are skipped). Returns
    how many tournaments were made."""
    now = now or clock.now()
    made = 0
    for pk in list(TournamentSeries.objects.filter(active=True).values_list("pk", flat=True)):
        with transaction.atomic():
            series = TournamentSeries.objects.select_for_update(of=("self",)).filter(pk=pk, active=True).first()
            if series is None:
                continue
            after = max(series.last_start or (series.first_start - timedelta(seconds=1)), now)
            start = next_start(series, after)
            if start is None:
                series.active = False
                series.save(update_fields=["active"])
                continue
            if start - timedelta(hours=series.lead_hours) > now:
                continue
            tournament = tournament_create(
                by=series.created_by, name=f"{series.name} {start:%Y-%m-%d}", format=series.format,
                length=series.options.get("lengths", {}).get("default", 7), options=series.options,
                starts_at=start, round_deadline_hours=series.round_deadline_hours, max_entrants=series.max_entrants)
            tournament.series = series
            tournament.save(update_fields=["series"])
            series.last_start = start
            series.save(update_fields=["last_start"])
            made += 1
    return made


__all__ = ["tournament_series_create", "series_schedule", "next_start", "rule_of"]

"""Tournaments on the site: the event (its pure state from ``games.tournament`` as JSON),
its entries and the match created for each pairing (docs/TOURNAMENTS.md, "On the site")."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from games.models.matches import Match
from games.models.players import Player


class TournamentSeries(models.Model):
    """A tournament repeated on a schedule: an iCalendar RRULE (``FREQ=WEEKLY;BYDAY=TU``)
    from ``first_start``; each occurrence becomes a :class:`Tournament` open for entries
    ``lead_hours`` before it starts (``services.tournament_series``)."""

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=12)
    options = models.JSONField(default=dict, blank=True, help_text="As Tournament.options.")
    rrule = models.CharField(max_length=200, help_text="An iCalendar RRULE, e.g. FREQ=WEEKLY;BYDAY=TU.")
    first_start = models.DateTimeField(help_text="The first occurrence (the rule's DTSTART, its time of day).")
    lead_hours = models.PositiveSmallIntegerField(default=24, help_text="Open for entries this long before.")
    round_deadline_hours = models.PositiveSmallIntegerField(default=0)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    last_start = models.DateTimeField(null=True, blank=True, help_text="The latest occurrence made a tournament.")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "tournament series"

    def __str__(self) -> str:
        return f"series #{self.pk} {self.name} ({self.rrule})"


class Tournament(models.Model):
    """One event. ``state`` is the pure event's ``to_dict()`` (None until the start);
    ``options`` are the format's options as given (camelCase, ``games.tournament.options``).
    Player ids in ``state`` are Player pks."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    # shown on the tournament's page and its club's ("Finished · winner Ann"), translated
    STATUSES = [(REGISTERING, pgettext_lazy("tournament status", "Registering")),
                (RUNNING, pgettext_lazy("tournament status", "Running")),
                (FINISHED, pgettext_lazy("tournament status", "Finished")),
                (CANCELLED, pgettext_lazy("tournament status", "Cancelled"))]
    FORMATS = [("knockout", _("Knock-out")), ("double", _("Double elimination")), ("swiss", _("Swiss")),
               ("roundrobin", _("Round robin")), ("groups", _("Groups then knock-out")), ("arena", _("Arena"))]

    name = models.CharField(max_length=80)
    format = models.CharField(max_length=12, choices=FORMATS)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTERING, db_index=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    directors = models.ManyToManyField(Player, blank=True, related_name="directed_tournaments")
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True,
                                     help_text="When the draw is made (empty: when a director starts it).")
    round_deadline_hours = models.PositiveSmallIntegerField(
        default=0, help_text="Hours each match has from its creation before the absent forfeit (0: none).")
    max_entrants = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no limit.")
    min_rating = models.PositiveIntegerField(null=True, blank=True, help_text="The rating band's floor (empty: none).")
    max_rating = models.PositiveIntegerField(null=True, blank=True, help_text="The rating band's ceiling (empty: none).")
    check_in_minutes = models.PositiveSmallIntegerField(
        default=0, help_text="Check-in opens this long before the start; not checked in by then: removed (0: none).")
    late_entries = models.BooleanField(default=False, help_text="Entries after the start (Swiss and arena only).")
    corr_days = models.PositiveSmallIntegerField(default=0, help_text="Correspondence: days per move (0: live).")
    corr_bank_days = models.PositiveSmallIntegerField(default=0, help_text="Correspondence: the bank in days.")
    paused_at = models.DateTimeField(null=True, blank=True, help_text="Paused by a director since (empty: not paused).")
    draw_seed = models.CharField(max_length=32, blank=True, help_text="The random draw's seed, kept to show it.")
    state = models.JSONField(null=True, blank=True, help_text="The pure event (games.tournament) as JSON.")
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every change of the event.")
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    series = models.ForeignKey(TournamentSeries, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="tournaments")
    club = models.ForeignKey("games.Club", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="tournaments", help_text="The club it is run for (its owners direct it).")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"tournament #{self.pk} {self.name} ({self.format}, {self.status})"


class Entry(models.Model):
    """A player's entry in a tournament (withdrawn entries stay, marked)."""

    ENTERED = "entered"
    WAITING = "waiting"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"
    REMOVED = "removed"  # not checked in by the start
    STATUSES = [(ENTERED, _("Entered")), (WAITING, _("Waiting list")), (WITHDRAWN, _("Withdrawn")),
                (DISQUALIFIED, _("Disqualified")), (REMOVED, _("Not checked in"))]
    GONE = (WITHDRAWN, DISQUALIFIED)  # out of a running event

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    status = models.CharField(max_length=12, choices=STATUSES, default=ENTERED)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True, help_text="When it joined the waiting list (its place).")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="unique_tournament_entry")]
        ordering = ["tournament_id", "pk"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} in #{self.tournament_id} ({self.status})"


class TournamentMatch(models.Model):
    """The match played for one pairing (``key``, as the pure event names it). A pairing
    whose match was aborted by an administrator gets a new one (the old link keeps
    ``replaced``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="links")
    key = models.CharField(max_length=20)
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="tournament_link")
    round = models.PositiveSmallIntegerField(default=1)
    label = models.CharField(max_length=60, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True,
                                    help_text="When an absent player forfeits (empty: no deadline).")
    forced = models.CharField(max_length=20, blank=True,
                              help_text="How the site decided it instead of the board (double_forfeit).")
    replaced = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "round", "pk"]
        indexes = [models.Index(fields=["tournament", "key"])]

    def __str__(self) -> str:
        return f"{self.key} of #{self.tournament_id}: match #{self.match_id}"


class DirectorAction(models.Model):
    """One thing a director (or the site, ``by`` empty) did to a running or registering
    tournament, shown on its page and in the API (``services.tournament_director``)."""

    PAUSE, RESUME, WITHDRAW, DISQUALIFY, AWARD, REPAIR = "pause", "resume", "withdraw", "disqualify", "award", "repair"
    CHECK_IN_REMOVED, PROMOTED = "not_checked_in", "promoted"
    ACTIONS = [(PAUSE, _("Paused the tournament")), (RESUME, _("Resumed the tournament")),
               (WITHDRAW, _("Withdrew a player")), (DISQUALIFY, _("Disqualified a player")),
               (AWARD, _("Awarded a match")), (REPAIR, _("Re-paired a round")),
               (CHECK_IN_REMOVED, _("Removed a player who did not check in")),
               (PROMOTED, _("Entered a player from the waiting list"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    action = models.CharField(max_length=16, choices=ACTIONS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    key = models.CharField(max_length=20, blank=True, help_text="The pairing acted on, if any.")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "pk"]

    def __str__(self) -> str:
        return f"{self.action} in #{self.tournament_id}"

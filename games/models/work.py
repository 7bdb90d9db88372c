"""The site's own bookkeeping: counters, background jobs, periodic runs, stored analyses."""

from __future__ import annotations

from django.db import models

from games.models.matches import Match
from games.models.players import Player


class Counter(models.Model):
    """A named counter bumped inside transactions (the lobby's version)."""

    name = models.CharField(max_length=30, primary_key=True)
    value = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} = {self.value}"


class Job(models.Model):
    """A long background job (an analysis, say) with progress a page can show.

    A worker reports ``progress`` (0..1) and ``message`` as it goes and refreshes
    ``heartbeat_at``; a job whose worker died (no heartbeat) is retried or marked failed by
    the periodic work, never left "running" (``games.jobs``)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    TIMED_OUT = "timed_out"
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"), (FAILED, "Failed"),
                (CANCELLED, "Cancelled"), (TIMED_OUT, "Timed out")]
    ACTIVE = (QUEUED, RUNNING)
    #: Ended without a result: its owner may queue it again.
    RETRYABLE = (FAILED, CANCELLED, TIMED_OUT)

    kind = models.CharField(max_length=30)
    key = models.CharField(max_length=100, db_index=True, help_text="What it works on, e.g. match:12.")
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    progress = models.FloatField(default=0.0)
    message = models.CharField(max_length=200, blank=True,
                               help_text="The progress line: marked English, its values in message_params.")
    message_params = models.JSONField(default=dict, blank=True,
                                      help_text="The values put into message when it is shown, in the reader's words.")
    error = models.TextField(blank=True, help_text="Why it ended without a result: marked English, its values in error_params.")
    error_code = models.CharField(max_length=40, blank=True, help_text="The stable code of error (job_crashed, job_timed_out...).")
    error_params = models.JSONField(default=dict, blank=True,
                                    help_text="The values put into error when it is shown, in the reader's words.")
    attempts = models.PositiveSmallIntegerField(default=0)
    params = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.status}, {self.progress:.0%})"


class PeriodicRun(models.Model):
    """One run of a periodic task: the unique (name, period) row is how exactly one worker
    claims each period, whatever the number of workers."""

    name = models.CharField(max_length=50)
    period = models.BigIntegerField(help_text="Seconds since the epoch, divided by the task's interval.")
    worker = models.CharField(max_length=100)
    ran_at = models.DateTimeField(auto_now_add=True)
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["name", "period"], name="unique_periodic_run")]
        indexes = [models.Index(fields=["name", "-period"])]

    def __str__(self) -> str:
        return f"{self.name} #{self.period} by {self.worker}"


# -- the bot API: agents, house bots and the matchmaking queue ------------------------------


class Analysis(models.Model):
    """One analysis of a match at one depth, run by a worker as a :class:`Job`.

    ``source`` is ``match`` (a match played here: its games' events are read from
    ``GameEvent``) or ``upload`` (a ``.mat`` file replayed through the engine at upload:
    its games' events are kept in ``upload``, visible to its owner only). ``result`` is
    :func:`games.analysis.analyse_match`'s JSON once the job is done; ``white_pr`` /
    ``black_pr`` and ``*_decisions`` are copied out of it for the profile's PR history."""

    MATCH = "match"
    UPLOAD = "upload"
    SOURCES = [(MATCH, "Match played here"), (UPLOAD, "Uploaded .mat")]

    source = models.CharField(max_length=10, choices=SOURCES, default=MATCH)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="analyses")
    owner = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                              help_text="Who asked for it (None: the automatic analysis at match end).")
    white_name = models.CharField(max_length=40)
    black_name = models.CharField(max_length=40)
    owner_side = models.CharField(max_length=5, blank=True, default="",
                                  help_text="An upload: the side its owner played (white, black, none), or blank: "
                                            "the side with the owner's name.")
    length = models.PositiveSmallIntegerField(default=0, help_text="Points to win; 0 is a money session.")
    depth = models.PositiveSmallIntegerField(default=2, help_text="GNU Backgammon plies.")
    job = models.ForeignKey(Job, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    upload = models.JSONField(default=dict, blank=True, help_text="An upload's games as event lists.")
    upload_sha256 = models.CharField(max_length=64, blank=True, db_index=True,
                                     help_text="An upload's file digest: the same file at the same depth is analysed once.")
    result = models.JSONField(null=True, blank=True)
    white_pr = models.FloatField(null=True, blank=True)
    black_pr = models.FloatField(null=True, blank=True)
    white_decisions = models.PositiveIntegerField(default=0)
    black_decisions = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name_plural = "analyses"
        indexes = [models.Index(fields=["match", "-id"])]

    def __str__(self) -> str:
        what = f"match #{self.match_id}" if self.match_id else f"upload by {self.owner}"
        return f"analysis #{self.pk} of {what} at {self.depth}-ply"

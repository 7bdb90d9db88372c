"""Practice from one's own errors: a session of exercises taken from the player's analysed
matches (``docs/ANALYSIS.md``, "Practice"), each answered once, and the session's score."""

from __future__ import annotations

from django.db import models

from games.models.players import Player
from games.models.work import Analysis


class PracticeSession(models.Model):
    """N exercises for one player; ``correct`` counts the best answers, ``lost`` sums the
    equity the answers gave up (normalised, as the analysis); ``finished_at`` is set when
    the last exercise is answered."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="practice_sessions")
    size = models.PositiveSmallIntegerField()
    answered = models.PositiveSmallIntegerField(default=0)
    correct = models.PositiveSmallIntegerField(default=0)
    lost = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"practice #{self.pk} of {self.player} ({self.correct}/{self.size})"


class PracticeExercise(models.Model):
    """One position where the player lost equity: ``data`` is the exercise as the selector
    built it (position, dice, cube, the choices with their equities, the best, the play
    made then); ``choice`` / ``loss`` / ``correct`` are the answer, null until given."""

    session = models.ForeignKey(PracticeSession, on_delete=models.CASCADE, related_name="exercises")
    number = models.PositiveSmallIntegerField(help_text="1..size, in the order shown.")
    analysis = models.ForeignKey(Analysis, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    key = models.CharField(max_length=60, help_text="analysis:game:event:kind, the decision it comes from.")
    kind = models.CharField(max_length=10, help_text="play, cube (double or not) or answer (take or pass).")
    data = models.JSONField()
    choice = models.CharField(max_length=20, null=True, blank=True)
    loss = models.FloatField(null=True, blank=True)
    correct = models.BooleanField(null=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_practice_number")]

    def __str__(self) -> str:
        return f"exercise {self.number} of practice #{self.session_id}"

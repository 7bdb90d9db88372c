"""Chouettes: the table, its seats, its games, its numbered events and its chat
(docs/CHOUETTE.md)."""

from __future__ import annotations

from django.db import models

from games.models.matches import EventRow, Game
from games.models.players import Player


class Chouette(models.Model):
    """A chouette session: seats, the engine's session state (the line, the running scores)
    as JSON in ``state``, and one event sequence numbered by ``version`` across its games
    (a socket resyncs with one number). Player ids in the engine's state are Player pks."""

    OPEN = "open"  # seats being taken, not started (or back to too few players)
    PLAYING = "playing"
    FINISHED = "finished"
    STATUSES = [(OPEN, "Open"), (PLAYING, "Playing"), (FINISHED, "Finished")]

    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    rules = models.JSONField(default=dict, help_text="The engine's ChouetteRules as JSON.")
    state = models.JSONField(null=True, blank=True, help_text="The engine's ChouetteSession (None before the start).")
    seating = models.JSONField(null=True, blank=True, help_text="The seating rolls, once started.")
    version = models.PositiveIntegerField(default=0)
    decision_seconds = models.PositiveIntegerField(default=60, help_text="Time for a cube decision.")
    deadline = models.DateTimeField(null=True, blank=True, db_index=True,
                                    help_text="When the pending cube decisions time out to the safe answer.")
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"chouette #{self.pk} ({self.status})"


class ChouetteSeat(models.Model):
    """A player who sat at a chouette (kept after leaving, for the history)."""

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    active = models.BooleanField(default=True, help_text="False once the player left or was dropped.")
    away_since = models.DateTimeField(null=True, blank=True, help_text="When the player's last socket closed.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chouette", "player"], name="unique_chouette_seat")]
        ordering = ["chouette_id", "pk"]


class ChouetteGame(models.Model):
    """One game of a chouette: the engine's ChouetteGame as JSON, its dice seed, its result."""

    PLAYING, FINISHED, STATUSES = Game.PLAYING, Game.FINISHED, Game.STATUSES  # a match game's vocabulary

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=PLAYING)
    state = models.JSONField()
    result = models.JSONField(null=True, blank=True)
    dice_seed = models.CharField(max_length=64)
    dice_commitment = models.CharField(max_length=64)
    dice_counter = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chouette", "number"], name="unique_chouette_game")]
        ordering = ["chouette_id", "number"]


class ChouetteEvent(EventRow):
    """One accepted action of a chouette, numbered without gaps per chouette. Append-only."""

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, null=True, blank=True, related_name="events")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chouette", "version"], name="unique_chouette_event")]
        ordering = ["chouette_id", "version"]


class ChouetteChat(models.Model):
    """A chat line of a chouette: the table (everyone seated), the team of one game (team
    chat and suggested plays), or the spectators."""

    TABLE = "table"
    TEAM = "team"
    SPECTATORS = "spectators"
    ROOMS = [(TABLE, "Table"), (TEAM, "Team"), (SPECTATORS, "Spectators")]
    MAX_LENGTH = 500

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="chat")
    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    room = models.CharField(max_length=10, choices=ROOMS)
    author = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=40)
    text = models.CharField(max_length=MAX_LENGTH)
    play = models.JSONField(null=True, blank=True, help_text="A suggested play: [{from, to}, ...].")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["chouette_id", "pk"]


# -- analysis (docs/ANALYSIS.md): a match's, or an uploaded .mat's ---------------------------

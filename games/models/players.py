"""Who plays: a person's or a program's profile, the bot-API agents, the house bots and
the matchmaking queue."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person or a bot: the profile beside Django's user."""

    DEFAULT_RATING = 1500.0

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    display_name = models.CharField(max_length=40)
    # The display name's comparison key (games.text.name_key: NFKC + case folding), unique so
    # that nobody takes a name that looks like another's. NULL only for rows that predate it
    # and collided (migration 0005).
    name_key = models.CharField(max_length=160, unique=True, null=True, blank=True, editable=False)
    rating = models.FloatField(default=DEFAULT_RATING)
    experience = models.PositiveIntegerField(default=0, help_text="Match points played in rated matches.")
    games_played = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    matches_played = models.PositiveIntegerField(default=0)
    matches_won = models.PositiveIntegerField(default=0)
    is_bot = models.BooleanField(default=False)
    suspended = models.BooleanField(default=False, help_text="A suspended player cannot log in or play.")
    is_guest = models.BooleanField(default=False, help_text="Played from an invite link without an account "
                                   "(unrated, no public chat, no bot API) until they sign up.")
    settings = models.JSONField(default=dict, blank=True,
                                help_text="The player's board and sound settings (services.player_update_settings).")
    # Notices by e-mail (games.services.notices): the address last verified (a changed
    # address is unverified), when the last "your turn" notice went out.
    email_verified = models.EmailField(blank=True, help_text="The e-mail address the player verified.")
    turn_noticed_at = models.DateTimeField(null=True, blank=True)
    # Vacation (games.services.vacations): correspondence clocks paused until then; the days
    # taken in vacation_year (a new year starts again from GAMES_VACATION_DAYS).
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["-rating"])]

    def __str__(self) -> str:
        return f"{self.display_name} (bot)" if self.is_bot else self.display_name


class PushSubscription(models.Model):
    """One browser's Web Push subscription (games.services.push): where to send, and its keys."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push for {self.player_id}"


class PendingNotice(models.Model):
    """A notice kept for a player's daily digest (``games.services.notify``): already worded in
    their language, mailed with the others of the day, then deleted."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pending_notices")
    kind = models.CharField(max_length=20)
    title = models.CharField(max_length=200)
    text = models.CharField(max_length=500)
    url = models.CharField(max_length=300)
    created_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.kind} notice for {self.player_id}"


class Agent(models.Model):
    """A program playing through the HTTP bot API: a bot Player plus the hash of its API key.

    The key itself is shown once, at registration; only its SHA-256 is stored.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="agent")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 (hex) of the API key.")
    key_prefix = models.CharField(max_length=12, help_text="The key's first characters, to recognise it.")
    description = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"agent {self.player.display_name}"


class HouseBot(models.Model):
    """The site's own computer player at one strength (``games.bots.LEVELS``). ``number`` 1 is
    the house bot of the lobby; a tournament filled with bots enters 2, 3... of the level."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="housebot")
    level = models.CharField(max_length=30)
    number = models.PositiveSmallIntegerField(default=1)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["level", "number"], name="unique_house_bot")]

    def __str__(self) -> str:
        return f"house bot {self.level}" + (f" {self.number}" if self.number > 1 else "")


class QueueEntry(models.Model):
    """A player's place in the matchmaking queue (one row per player, reused)."""

    WAITING = "waiting"
    MATCHED = "matched"
    EXPIRED = "expired"
    STATUSES = [(WAITING, "Waiting"), (MATCHED, "Matched"), (EXPIRED, "Expired")]

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="queue_entry")
    game = models.CharField(max_length=20, default="backgammon")
    length = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=STATUSES, default=WAITING)
    match = models.ForeignKey("games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    queued_at = models.DateTimeField(help_text="When the player (re)joined: the FIFO order.")
    seen_at = models.DateTimeField(help_text="Last join or status poll: the entry expires this long after.")

    class Meta:
        verbose_name_plural = "queue entries"
        indexes = [models.Index(fields=["status", "game", "length", "queued_at"])]

    def __str__(self) -> str:
        return f"{self.player} {self.status} ({self.length}-point)"


# -- chouettes (docs/CHOUETTE.md, "Playing it") --------------------------------------------------

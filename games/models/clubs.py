"""Clubs (docs/CLUBS.md): a club with its owners and members, the invite link's token, and
its ladder (every member's place, and the challenges between them, each played as a match)."""

from __future__ import annotations

from django.db import models

from games.models.matches import Match
from games.models.players import Player


class Club(models.Model):
    """A club. ``invite_token`` is the secret of its invite link (``/clubs/join/<token>/``);
    owners renew it. ``ladder_reach`` is how many places above their own a member may
    challenge; a challenge is a match to ``match_length`` points played within
    ``challenge_hours``."""

    name = models.CharField(max_length=60)
    name_key = models.CharField(max_length=240, unique=True, editable=False,
                                help_text="The name's comparison key (games.text.name_key).")
    description = models.TextField(max_length=500, blank=True)
    invite_token = models.CharField(max_length=40, unique=True)
    ladder_reach = models.PositiveSmallIntegerField(default=3)
    match_length = models.PositiveSmallIntegerField(default=5)
    challenge_hours = models.PositiveSmallIntegerField(default=72)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return f"club #{self.pk} {self.name}"


class Membership(models.Model):
    """A player in a club: an owner or a member, and their place on the ladder (1 is the
    top; places run 1..n without gaps)."""

    OWNER = "owner"
    MEMBER = "member"
    ROLES = [(OWNER, "Owner"), (MEMBER, "Member")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=8, choices=ROLES, default=MEMBER)
    position = models.PositiveIntegerField(help_text="The place on the club's ladder (1: the top).")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="unique_club_member")]
        ordering = ["club_id", "position"]

    def __str__(self) -> str:
        return f"{self.player} in {self.club_id} ({self.role}, #{self.position})"


class Challenge(models.Model):
    """A ladder challenge: the challenger, below, against the defender, played as
    ``match``. ``OPEN`` until the match ends (``PLAYED``: by play or a forfeit) or it is
    voided (``VOID``: aborted, both absent, or a player left the club)."""

    OPEN = "open"
    PLAYED = "played"
    VOID = "void"
    STATUSES = [(OPEN, "Open"), (PLAYED, "Played"), (VOID, "Void")]

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="club_challenge")
    status = models.CharField(max_length=8, choices=STATUSES, default=OPEN, db_index=True)
    challenger_position = models.PositiveIntegerField(help_text="The challenger's place when challenging.")
    defender_position = models.PositiveIntegerField(help_text="The defender's place when challenged.")
    deadline = models.DateTimeField(db_index=True, help_text="When a player who never came forfeits.")
    winner = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    swapped = models.BooleanField(default=False, help_text="The challenger won and took the defender's place.")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"challenge #{self.pk} in {self.club_id}: {self.challenger_id} v {self.defender_id} ({self.status})"

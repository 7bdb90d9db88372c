"""Matches, their games and numbered events, their chat and the sockets open on them.

A game's rules state is the engine's :class:`~games.engine.GameState`, stored as JSON in
``Game.state``; every accepted action appends a :class:`GameEvent` numbered by the game's
``version``, so a game can be replayed from its events (``games.engine.replay``).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.engine import GameState, MatchRules, MatchState
from games.engine.match import OPTION_FIELDS
from games.models.players import Player


class Match(models.Model):
    """Two seats, a length (0 = unlimited money session), the options and the score.

    The creator sits in White's seat, the joiner in Black's; the opening roll of
    each game decides who moves first.
    """

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"
    # worded for the players ("Match 12: finished"): a status, not a heading or an order
    STATUSES = [(OPEN, pgettext_lazy("match status", "Open")), (PLAYING, pgettext_lazy("match status", "Playing")),
                (FINISHED, pgettext_lazy("match status", "Finished")), (ABORTED, pgettext_lazy("match status", "Aborted"))]

    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="matches_as_white")
    black = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="matches_as_black", null=True, blank=True
    )
    length = models.PositiveSmallIntegerField(default=1, help_text="Points to win; 0 is a money session.")
    cube = models.BooleanField(default=True)
    cube_limit = models.PositiveIntegerField(null=True, blank=True, default=64, help_text="Empty: no limit.")
    crawford = models.BooleanField(default=True)
    jacoby = models.BooleanField(default=False)
    beaver = models.BooleanField(default=False)
    raccoon = models.BooleanField(default=False)
    auto_doubles = models.PositiveSmallIntegerField(default=0)
    double_backgammon = models.BooleanField(default=False)
    last_roll = models.BooleanField(default=False)

    white_score = models.PositiveIntegerField(default=0)
    black_score = models.PositiveIntegerField(default=0)
    games_played = models.PositiveIntegerField(default=0)
    crawford_game = models.BooleanField(default=False, help_text="The current game is the Crawford game.")
    crawford_done = models.BooleanField(default=False)
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    end_reason = models.CharField(max_length=20, blank=True)

    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, unique=True, null=True, blank=True)
    spectators_allowed = models.BooleanField(default=True, help_text="Logged-in users may watch.")
    anonymous_spectators = models.BooleanField(default=True, help_text="Visitors who are not logged in may watch.")
    rated = models.BooleanField(default=True)
    aids = models.BooleanField(default=False, help_text="Hints and the tutor are allowed (unrated play only).")
    rematch_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    # Clocks: a per-move delay plus a time bank per match point (0 = no clock).
    clock_delay = models.PositiveSmallIntegerField(default=0, help_text="Seconds per move before the bank runs.")
    clock_bank = models.PositiveIntegerField(default=0, help_text="Seconds of time bank per match point.")
    # Correspondence (docs/CORRESPONDENCE.md): days per move (0 = a live match) plus a bank in
    # days for the whole match; the game's clock_deadline is when the player on roll runs out.
    corr_days = models.PositiveSmallIntegerField(default=0, help_text="Days per move (0: not correspondence).")
    corr_bank_days = models.PositiveSmallIntegerField(default=0, help_text="Days of time bank for the match.")
    white_bank_ms = models.BigIntegerField(default=0)
    black_bank_ms = models.BigIntegerField(default=0)
    # Absence: when a player's last socket closed (None while connected).
    white_away_since = models.DateTimeField(null=True, blank=True)
    black_away_since = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        permissions = [("view_any_match", "Can watch and export any match, private ones included")]

    def __str__(self) -> str:
        length = f"{self.length}-point" if self.length else "money"
        black = self.black or "?"
        return f"#{self.pk} {self.white} v {black} ({length}, {self.status})"

    # -- the engine's view of the match ---------------------------------------
    def rules(self) -> MatchRules:
        return MatchRules(**{name: getattr(self, name) for name in OPTION_FIELDS})

    def match_state(self) -> MatchState:
        winner = None
        if self.winner_id is not None:
            winner = "white" if self.winner_id == self.white_id else "black"
        return MatchState(
            rules=self.rules(),
            white_score=self.white_score,
            black_score=self.black_score,
            games_played=self.games_played,
            is_crawford_game=self.crawford_game,
            crawford_done=self.crawford_done,
            winner=winner,
        )

    def color_of(self, player) -> str | None:
        """``"white"``/``"black"`` for a seated player, else None."""
        pid = getattr(player, "pk", player)
        if pid is None:
            return None
        if pid == self.white_id:
            return "white"
        if pid == self.black_id:
            return "black"
        return None

    def player_of(self, color: str):
        return self.white if color == "white" else self.black

    #: ``end_reason`` of a match awarded by forfeit, and what the loser did.
    FORFEIT_ENDS = {"forfeit": gettext_lazy("left the match"), "timeout": gettext_lazy("out of time"),
                    "abandoned": gettext_lazy("abandoned the match"), "suspended": gettext_lazy("account suspended")}
    #: Every ``end_reason`` in words (a page shows these; the code stays in the data).
    END_WORDS = {**FORFEIT_ENDS, "points": gettext_lazy("on points"), "cancelled": gettext_lazy("match cancelled"),
                 "aborted": gettext_lazy("match aborted")}

    @property
    def end_reason_word(self) -> str:
        """``end_reason`` in the reader's words (the code itself for one without words)."""
        return str(self.END_WORDS.get(self.end_reason, self.end_reason))

    @property
    def forfeit_note(self) -> str:
        """``"by forfeit (out of time)"`` for a match to N points awarded by forfeit, else ``""``
        (the score shown beside it is the one reached by play: see README, Forfeits)."""
        if not self.length or not self.winner_id or self.end_reason not in self.FORFEIT_ENDS:
            return ""
        return gettext("by forfeit (%(why)s)") % {"why": self.FORFEIT_ENDS[self.end_reason]}


class Game(models.Model):
    """One game of a match. ``state`` is the engine's GameState as JSON."""

    PLAYING = "playing"
    FINISHED = "finished"
    STATUSES = [(PLAYING, "Playing"), (FINISHED, "Finished")]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=PLAYING, db_index=True)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    dice_seed = models.CharField(max_length=64, help_text="Revealed when the game ends.")
    dice_commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed, published at the start.")
    dice_counter = models.PositiveIntegerField(default=0)
    winner_color = models.CharField(max_length=5, blank=True)
    points = models.PositiveIntegerField(default=0)
    result_kind = models.CharField(max_length=20, blank=True)
    # The running clock: whose it is, since when, and when that player's time is up.
    clock_color = models.CharField(max_length=5, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True, db_index=True)
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    clock_warned = models.BooleanField(default=False, help_text="The player on the clock was told it runs low.")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_game_number")]
        ordering = ["match_id", "number"]

    def __str__(self) -> str:
        return f"Game {self.number} of match #{self.match_id}"

    def game_state(self) -> GameState:
        """The state held in ``state``, decoded once for each dict held there (a move decodes
        the locked row's and then reads back the one it stores: :meth:`set_game_state`)."""
        held = self.__dict__.get("_decoded")
        if held is not None and held[0] is self.state:
            return held[1]
        state = GameState.from_dict(self.state)
        self._decoded = (self.state, state)
        return state

    def set_game_state(self, state: GameState) -> None:
        """Hold ``state`` (written with the row), and remember it decoded."""
        self.state = state.to_dict()
        self._decoded = (self.state, state)


class EventRow(models.Model):
    """What every event log keeps of one accepted action (a game's, a chouette's): its number
    in the log, its type, who acted, the event's payload and when it was written."""

    version = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    actor = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class GameEvent(EventRow):
    """One accepted action, numbered without gaps per game. Append-only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "version"], name="unique_event_version")]
        ordering = ["game_id", "version"]

    def __str__(self) -> str:
        return f"{self.game} v{self.version} {self.type}"


class ChatMessage(models.Model):
    """A chat line in a match: the players' room or the spectators' room."""

    PLAYERS = "players"
    SPECTATORS = "spectators"
    ROOMS = [(PLAYERS, "Players"), (SPECTATORS, "Spectators")]
    MAX_LENGTH = 500

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    room = models.CharField(max_length=10, choices=ROOMS)
    author = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, related_name="+")
    name = models.CharField(max_length=40)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "pk"]
        indexes = [models.Index(fields=["match", "room", "-id"])]

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"


class Connection(models.Model):
    """One open websocket on a match (presence, shared by every server process).

    The web process holding the socket refreshes ``seen_at`` (a heartbeat); a row whose
    heartbeat stopped (its process died, or the socket's consumer crashed) is swept by the
    workers, so presence heals by itself."""

    channel_name = models.CharField(max_length=200, unique=True)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="connections")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    role = models.CharField(max_length=10)  # white / black / spectator
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)

"""Persistent state of the site: player profiles, matches, games and their numbered events.

Only ``games.services`` writes these models. A game's rules state is the
engine's :class:`~games.engine.GameState`, stored as JSON in ``Game.state``;
every accepted action appends a :class:`GameEvent` numbered by the game's
``version``, so a game can be replayed from its events (``games.replay``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine import GameState, MatchRules, MatchState


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["-rating"])]

    def __str__(self) -> str:
        return f"{self.display_name} (bot)" if self.is_bot else self.display_name


class Match(models.Model):
    """Two seats, a length (0 = unlimited money session), the options and the score.

    The creator sits in White's seat, the joiner in Black's; the opening roll of
    each game decides who moves first.
    """

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"
    STATUSES = [(OPEN, "Open"), (PLAYING, "Playing"), (FINISHED, "Finished"), (ABORTED, "Aborted")]

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
        return MatchRules(
            length=self.length,
            cube=self.cube,
            cube_limit=self.cube_limit,
            crawford=self.crawford,
            jacoby=self.jacoby,
            beaver=self.beaver,
            raccoon=self.raccoon,
            auto_doubles=self.auto_doubles,
            double_backgammon=self.double_backgammon,
            last_roll=self.last_roll,
        )

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
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
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


class GameEvent(models.Model):
    """One accepted action, numbered without gaps per game. Append-only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    actor = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

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
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"), (FAILED, "Failed")]

    kind = models.CharField(max_length=30)
    key = models.CharField(max_length=100, db_index=True, help_text="What it works on, e.g. match:12.")
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    progress = models.FloatField(default=0.0)
    message = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
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
    """The site's own computer player at one strength (``games.bots.LEVELS``)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="housebot")
    level = models.CharField(max_length=30, unique=True)

    def __str__(self) -> str:
        return f"house bot {self.level}"


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
    match = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    queued_at = models.DateTimeField(help_text="When the player (re)joined: the FIFO order.")
    seen_at = models.DateTimeField(help_text="Last join or status poll: the entry expires this long after.")

    class Meta:
        verbose_name_plural = "queue entries"
        indexes = [models.Index(fields=["status", "game", "length", "queued_at"])]

    def __str__(self) -> str:
        return f"{self.player} {self.status} ({self.length}-point)"


# -- chouettes (docs/CHOUETTE.md, "Playing it") --------------------------------------------------


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

    PLAYING = "playing"
    FINISHED = "finished"
    STATUSES = [(PLAYING, "Playing"), (FINISHED, "Finished")]

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


class ChouetteEvent(models.Model):
    """One accepted action of a chouette, numbered without gaps per chouette. Append-only."""

    chouette = models.ForeignKey(Chouette, on_delete=models.CASCADE, related_name="events")
    game = models.ForeignKey(ChouetteGame, on_delete=models.CASCADE, null=True, blank=True, related_name="events")
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    actor = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

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
    length = models.PositiveSmallIntegerField(default=0, help_text="Points to win; 0 is a money session.")
    depth = models.PositiveSmallIntegerField(default=2, help_text="GNU Backgammon plies.")
    job = models.ForeignKey(Job, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    upload = models.JSONField(default=dict, blank=True, help_text="An upload's games as event lists.")
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

"""Whose turn: a player's matches being played, split into those waiting for them (oldest
first, each with its time left) and those waiting for the opponent; and the finished ones.

One query for the games in progress (with their matches and players, and the time of each
game's last event), then the engine's state of each to know who must act.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Q

from games import clock
from games.engine import GameState, other
from games.models import Game, Match
from games.selectors.serializers import time_control

FILTERS = ("mine", "theirs", "finished")


@dataclass(frozen=True)
class Turn:
    """One match in progress, from ``color``'s side."""

    match: Match
    game_id: int
    color: str
    actor: str | None
    since: datetime  # when the player to act was given the turn (their clock's start, else the last event)
    deadline: datetime | None

    @property
    def mine(self) -> bool:
        return self.actor == self.color

    @property
    def opponent(self):
        return self.match.player_of(other(self.color))

    @property
    def opponent_vacation(self):
        """When the opponent's vacation ends, if they are on one (a correspondence match)."""
        until = getattr(self.opponent, "vacation_until", None)
        return until if self.match.corr_days and until is not None and until > clock.now() else None

    def seconds_left(self, now=None) -> int | None:
        if self.deadline is None:
            return None
        return max(0, int((self.deadline - (now or clock.now())).total_seconds()))

    def time_left_text(self, now=None) -> str:
        left = self.seconds_left(now)
        if left is None:
            return "no clock"
        days, rest = divmod(left, 86_400)
        hours, rest = divmod(rest, 3600)
        if days:
            return f"{days}d {hours}h"
        return f"{hours}h {rest // 60}m" if hours else f"{rest // 60}m {rest % 60}s"

    def to_dict(self, now=None) -> dict:
        """The line of ``GET /api/matches?turn=``."""
        opponent = self.opponent
        return {"matchId": self.match.pk, "gameId": self.game_id, "yourColor": self.color,
                "isYourTurn": self.mine, "since": self.since.isoformat(),
                "deadline": self.deadline.isoformat() if self.deadline else None,
                "secondsLeft": self.seconds_left(now), "matchLength": self.match.length,
                "score": {"white": self.match.white_score, "black": self.match.black_score},
                "opponent": {"id": opponent.pk, "name": opponent.display_name,
                             "vacationUntil": self.opponent_vacation.isoformat() if self.opponent_vacation else None}
                if opponent else None,
                "timeControl": time_control(self.match)}


def turns(player, limit: int = 500) -> list:
    """Every match ``player`` is playing, as :class:`Turn` (unsorted)."""
    if player is None:
        return []
    pid = getattr(player, "pk", player)
    games = (Game.objects.filter(status=Game.PLAYING, match__status=Match.PLAYING)
             .filter(Q(match__white_id=pid) | Q(match__black_id=pid))
             .select_related("match", "match__white", "match__black")
             .annotate(last_event=Max("events__created_at")).order_by("pk")[:limit])
    out = []
    for game in games:
        match = game.match
        color = match.color_of(pid)
        actor = GameState.from_dict(game.state).actor
        since = game.clock_started_at or game.last_event or game.started_at
        out.append(Turn(match, game.pk, color, actor, since, game.clock_deadline))
    return out


def split(player) -> tuple:
    """``(mine, theirs)``: the matches waiting for ``player`` (oldest first) and for the opponent."""
    every = turns(player)
    mine = sorted((t for t in every if t.mine), key=lambda t: (t.since, t.game_id))
    theirs = sorted((t for t in every if not t.mine), key=lambda t: (t.since, t.game_id))
    return mine, theirs


def your_turn(player) -> list:
    """The matches where it is ``player``'s turn, the one waiting longest first."""
    return split(player)[0]


def next_waiting(player, after_game=None):
    """The game to open next: the oldest waiting for ``player`` other than ``after_game`` (or None)."""
    for turn in your_turn(player):
        if turn.game_id != after_game:
            return turn.game_id
    return None


def waiting_elsewhere(player, game_id) -> int:
    """How many matches wait for ``player`` besides the one of game ``game_id`` (the game page's header
    count and its "Next match")."""
    return sum(1 for turn in your_turn(player) if turn.game_id != game_id)


def finished(player, limit: int = 100) -> list:
    pid = getattr(player, "pk", player)
    return list(Match.objects.filter(Q(white_id=pid) | Q(black_id=pid), status__in=[Match.FINISHED, Match.ABORTED])
                .select_related("white", "black", "winner").order_by("-finished_at", "-pk")[:limit])

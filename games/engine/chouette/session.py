"""A chouette session: seating, the line, running scores, joining, leaving, rotation.

The line is the box first, then the captain, then the crew in order. After
each game :meth:`ChouetteSession.record` adds the game's points and rotates:
the captain's turn is over (he goes to the end of the team's line); when the
box did not hold, the final captain takes the box and the old box goes to the
end of the line. Newcomers wait for the end of the current game and join at
the end of the line; leavers are removed once it is recorded.

>>> s = seat(["ann", "bob", "cy"], {"ann": 6, "bob": 3, "cy": 3})
>>> s.must_roll
('bob', 'cy')
>>> s = s.roll({"bob": 2, "cy": 5}); s.order
('ann', 'cy', 'bob')
>>> rotate(("ann", "cy", "bob", "dee"), box_holds=True, final_captain="cy")
('ann', 'bob', 'dee', 'cy')
>>> rotate(("ann", "cy", "bob", "dee"), box_holds=False, final_captain="cy")
('cy', 'bob', 'dee', 'ann')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import IllegalAction
from .game import ChouetteGame
from .records import ChouetteResult
from .rules import ChouetteRules, check_die, check_player
from games.engine.errors import gettext_noop


# -- seating ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seating:
    """Seating by one die each: the highest is the box, the next the captain, and so
    on. Ties roll again, only among the tied, until every place is decided.

    ``groups`` are the places in order; a group of several players is a tie
    still to be broken. ``rolls`` keeps every round of dice, ``(player, die)``.
    """

    players: tuple
    groups: tuple
    rolls: tuple = ()

    @classmethod
    def start(cls, players) -> "Seating":
        players = tuple(check_player(p) for p in players)
        if len(set(players)) != len(players):
            raise IllegalAction("duplicate_player", gettext_noop("A player can sit only once in a chouette."))
        if not players:
            raise IllegalAction("bad_player_count", gettext_noop("Nobody to seat."))
        return cls(players=players, groups=(players,))

    @property
    def must_roll(self) -> tuple:
        """Who rolls one die now (in seating order), empty once the order is decided."""
        return tuple(p for g in self.groups if len(g) > 1 for p in g)

    @property
    def is_done(self) -> bool:
        return not self.must_roll

    @property
    def order(self) -> tuple:
        """The line: box, captain, crew (raises until every tie is broken)."""
        if not self.is_done:
            raise IllegalAction("seating_not_done", gettext_noop("Some players must roll again."))
        return tuple(g[0] for g in self.groups)

    def roll(self, dice_by_player) -> "Seating":
        """One die for each player of :attr:`must_roll` (a dict, or ``[player, die]`` pairs)."""
        if self.is_done:
            raise IllegalAction("seating_done", gettext_noop("The seating order is decided."))
        pairs = dice_by_player.items() if isinstance(dice_by_player, dict) else dice_by_player
        try:
            dice = {p: d for p, d in pairs}
        except (TypeError, ValueError):
            raise IllegalAction("bad_dice", gettext_noop("Give one die per player.")) from None
        if set(dice) != set(self.must_roll):
            raise IllegalAction("wrong_rollers", gettext_noop("Exactly these players roll now: %(list)s."),
                    params={"list": list(self.must_roll)})
        for d in dice.values():
            check_die(d)
        groups = []
        for g in self.groups:
            if len(g) == 1:
                groups.append(g)
                continue
            for value in sorted({dice[p] for p in g}, reverse=True):
                groups.append(tuple(p for p in g if dice[p] == value))
        this_round = tuple((p, dice[p]) for p in self.must_roll)
        return replace(self, groups=tuple(groups), rolls=self.rolls + (this_round,))

    def to_dict(self) -> dict:
        return {
            "players": list(self.players),
            "groups": [list(g) for g in self.groups],
            "rolls": [[[p, d] for p, d in r] for r in self.rolls],
            "mustRoll": list(self.must_roll),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Seating":
        return cls(
            players=tuple(data["players"]),
            groups=tuple(tuple(g) for g in data["groups"]),
            rolls=tuple(tuple((p, d) for p, d in r) for r in data["rolls"]),
        )


def seat(players, dice_by_player) -> Seating:
    """Seat ``players`` from one die each; see :attr:`Seating.must_roll` for ties."""
    return Seating.start(players).roll(dice_by_player)


def rotate(line: tuple, *, box_holds: bool, final_captain) -> tuple:
    """The line after a game: the captain goes to the end of the team's line; when the
    box did not hold, ``final_captain`` takes the box and the old box goes last."""
    box, team = line[0], tuple(line[1:])
    team = team[1:] + team[:1]
    if box_holds:
        return (box,) + team
    return (final_captain,) + tuple(p for p in team if p != final_captain) + (box,)


# -- the session ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ChouetteSession:
    """The running state of a chouette between and around its games."""

    rules: ChouetteRules
    line: tuple
    scores: tuple  # (player, points) for everyone who ever sat, in order of arrival
    games_played: int = 0
    in_game: bool = False
    waiting: tuple = ()  # joined during a game: seated at the end of the line after it
    leaving: tuple = ()  # left during a game: removed once it is recorded

    @classmethod
    def new(cls, rules: ChouetteRules, line) -> "ChouetteSession":
        """A session seated in ``line`` (box, captain, crew), e.g. ``Seating.order``."""
        line = tuple(check_player(p) for p in line)
        if len(set(line)) != len(line):
            raise IllegalAction("duplicate_player", gettext_noop("A player can sit only once in a chouette."))
        if len(line) > rules.max_players:
            raise IllegalAction("table_full", gettext_noop("A chouette seats at most %(max_players)s players."),
                    params={"max_players": rules.max_players})
        return cls(rules=rules, line=line, scores=tuple((p, 0) for p in line))

    # -- queries --------------------------------------------------------------------------
    @property
    def box(self):
        return self.line[0] if self.line else None

    @property
    def captain(self):
        return self.line[1] if len(self.line) > 1 else None

    @property
    def crew(self) -> tuple:
        return tuple(self.line[2:])

    @property
    def can_start(self) -> bool:
        return not self.in_game and len(self.line) >= self.rules.min_players

    def score_of(self, player) -> int:
        for who, points in self.scores:
            if who == player:
                return points
        return 0

    # -- actions --------------------------------------------------------------------------
    def join(self, player) -> "ChouetteSession":
        """A newcomer sits at the end of the line (after the current game, if one is on)."""
        check_player(player)
        if player in self.line or player in self.waiting:
            if player in self.leaving:  # changed their mind during the game
                return replace(self, leaving=tuple(p for p in self.leaving if p != player))
            raise IllegalAction("already_seated", gettext_noop("%(player)s is already in this chouette."),
                    params={"player": repr(player)})
        if len(self.line) + len(self.waiting) - len(self.leaving) >= self.rules.max_players:
            raise IllegalAction("table_full", gettext_noop("A chouette seats at most %(max_players)s players."),
                    params={"max_players": self.rules.max_players})
        scores = self.scores
        if all(who != player for who, _ in scores):
            scores = scores + ((player, 0),)
        if self.in_game:
            return replace(self, waiting=self.waiting + (player,), scores=scores)
        return replace(self, line=self.line + (player,), scores=scores)

    def leave(self, player) -> "ChouetteSession":
        """Leave the session: at once between games, after the current game otherwise
        (the game itself is told with :meth:`ChouetteGame.leave`). The score stays."""
        if player in self.waiting:
            return replace(self, waiting=tuple(p for p in self.waiting if p != player))
        if player not in self.line or player in self.leaving:
            raise IllegalAction("not_seated", gettext_noop("%(player)s is not seated in this chouette."),
                    params={"player": repr(player)})
        if self.in_game:
            return replace(self, leaving=self.leaving + (player,))
        return replace(self, line=tuple(p for p in self.line if p != player))

    def start_game(self) -> tuple:
        """``(session, game)``: the next game, box against the rest of the line."""
        if self.in_game:
            raise IllegalAction("game_in_progress", gettext_noop("A game is already being played."))
        if len(self.line) < self.rules.min_players:
            raise IllegalAction(
                "not_enough_players", gettext_noop("A chouette needs at least %(min_players)s players.")
            , params={"min_players": self.rules.min_players})
        game = ChouetteGame.new(self.rules, self.line[0], self.line[1:])
        return replace(self, in_game=True), game

    def record(self, result: ChouetteResult) -> "ChouetteSession":
        """Add a finished game's points, rotate, then seat newcomers and remove leavers."""
        if not self.in_game:
            raise IllegalAction("no_game_in_progress", gettext_noop("No game is being played."))
        if result.box != self.line[0] or tuple(result.team) != tuple(self.line[1:]):
            raise IllegalAction("result_mismatch", gettext_noop("That result is not from this session's current game."))
        gained = dict(result.scores)
        scores = tuple((who, pts + gained.get(who, 0)) for who, pts in self.scores)
        line = rotate(self.line, box_holds=result.box_holds, final_captain=result.final_captain)
        line = tuple(p for p in line if p not in self.leaving) + self.waiting
        return replace(
            self, line=line, scores=scores, games_played=self.games_played + 1,
            in_game=False, waiting=(), leaving=(),
        )

    # -- persistence ----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "rules": self.rules.to_dict(),
            "line": list(self.line),
            "scores": [[who, pts] for who, pts in self.scores],
            "gamesPlayed": self.games_played,
            "inGame": self.in_game,
            "waiting": list(self.waiting),
            "leaving": list(self.leaving),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "ChouetteSession":
        return cls(
            rules=ChouetteRules.from_dict(data["rules"]),
            line=tuple(data["line"]),
            scores=tuple((who, pts) for who, pts in data["scores"]),
            games_played=data["gamesPlayed"],
            in_game=data["inGame"],
            waiting=tuple(data["waiting"]),
            leaving=tuple(data["leaving"]),
        )


__all__ = ["Seating", "seat", "rotate", "ChouetteSession"]

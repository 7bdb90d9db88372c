"""Matches to N points (with the Crawford rule) and unlimited money sessions.

>>> m = MatchState.new(MatchRules(length=3))
>>> m.game_rules().cube, m.game_rules().crawford_game
(True, False)
>>> m = m.record(GameResult("white", "gammon", "bearoff", 1, 2))
>>> m.score, m.is_crawford_game
((2, 0), True)
>>> m.game_rules().cube_in_play
False
>>> m = m.record(GameResult("black", "single", "bearoff", 1, 1))
>>> m.is_crawford_game, m.post_crawford
(False, True)
>>> m = m.record(GameResult("white", "single", "drop", 2, 2)); m.winner
'white'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .errors import IllegalAction
from .wire import from_wire, to_wire
from .game import GameResult, GameRules
from .position import BLACK, WHITE, other
from games.engine.errors import gettext_noop

UNLIMITED = 0
MAX_LENGTH = 64


@dataclass(frozen=True)
class MatchRules:
    """Options chosen when a match is created (RULES.md).

    ``length`` 0 is an unlimited money session. The cube defaults to on except
    in a 1-point match; Jacoby, beaver, raccoon, automatic doubles and the
    last-roll rule are money-session options only.
    """

    length: int = 1
    cube: bool | None = None  # None: the default for the length
    cube_limit: int | None = 64
    crawford: bool = True
    jacoby: bool = False
    beaver: bool = False
    raccoon: bool = False
    auto_doubles: int = 0
    double_backgammon: bool = False
    last_roll: bool = False

    def __post_init__(self):
        if type(self.length) is not int or not 0 <= self.length <= MAX_LENGTH:
            raise IllegalAction("bad_length", gettext_noop("Match length must be 0 (money) to %(MAX_LENGTH)s points."),
                    params={"MAX_LENGTH": MAX_LENGTH})
        if self.cube is None:
            object.__setattr__(self, "cube", self.length != 1)
        if self.length == 1 and self.cube:
            raise IllegalAction("no_cube_in_one_point", gettext_noop("A 1-point match is played without the cube."))
        if self.cube_limit is not None and (
            type(self.cube_limit) is not int or self.cube_limit < 2 or self.cube_limit & (self.cube_limit - 1)
        ):
            raise IllegalAction("bad_cube_limit", gettext_noop("The cube limit must be a power of two, at least 2, or none."))
        if type(self.auto_doubles) is not int or not 0 <= self.auto_doubles <= 6:
            raise IllegalAction("bad_auto_doubles", gettext_noop("Automatic doubles must be a count from 0 to 6."))
        money_only = {
            "jacoby": self.jacoby,
            "beaver": self.beaver,
            "raccoon": self.raccoon,
            "auto_doubles": self.auto_doubles,
            "last_roll": self.last_roll,
        }
        if self.length:
            used = [name for name, value in money_only.items() if value]
            if used:
                raise IllegalAction(
                    "money_only_option", gettext_noop("%(value)s can only be used in money sessions.")
                , params={"value": ', '.join(used)})
        if self.raccoon and not self.beaver:
            raise IllegalAction("raccoon_needs_beaver", gettext_noop("Raccoons need beavers to be allowed."))
        if (self.beaver or self.jacoby or self.auto_doubles) and not self.cube:
            raise IllegalAction("cube_option_without_cube", gettext_noop("Cube options need the cube to be on."))

    @property
    def is_money(self) -> bool:
        return self.length == UNLIMITED

    def options(self) -> dict:
        """``{option: value}`` for every name of :data:`OPTION_FIELDS`."""
        return {name: getattr(self, name) for name in OPTION_FIELDS}

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "MatchRules":
        return from_wire(cls, data)


#: The options a match is created with, derived once from :class:`MatchRules`: the match's
#: model, the services, the rematch and the forms all read these names.
OPTION_FIELDS = tuple(f.name for f in fields(MatchRules))
#: The options that are true or false.
BOOL_OPTIONS = tuple(f.name for f in fields(MatchRules) if f.type.startswith("bool"))


@dataclass(frozen=True)
class MatchState:
    """Score and Crawford state of a match; ``record`` adds a finished game."""

    rules: MatchRules
    white_score: int = 0
    black_score: int = 0
    games_played: int = 0
    is_crawford_game: bool = False  # the next (or current) game is the Crawford game
    crawford_done: bool = False
    winner: str | None = None

    @classmethod
    def new(cls, rules: MatchRules | None = None) -> "MatchState":
        return cls(rules=rules or MatchRules())

    @property
    def score(self) -> tuple:
        return (self.white_score, self.black_score)

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.is_crawford_game

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def away(self, color: str) -> int | None:
        """Points ``color`` still needs (None in a money session)."""
        if self.rules.is_money:
            return None
        return self.rules.length - (self.white_score if color == WHITE else self.black_score)

    def game_rules(self) -> GameRules:
        """The options the next game is played under."""
        r = self.rules
        return GameRules(
            cube=r.cube,
            cube_limit=r.cube_limit,
            jacoby=r.jacoby,
            beaver=r.beaver,
            raccoon=r.raccoon,
            auto_doubles=r.auto_doubles,
            double_backgammon=r.double_backgammon,
            last_roll=r.last_roll,
            crawford_game=self.is_crawford_game,
        )

    def record(self, result: GameResult) -> "MatchState":
        """Add a finished game's points; detect the Crawford game and the match winner."""
        if self.winner is not None:
            raise IllegalAction("match_over", gettext_noop("The match is over."))
        white, black = self.white_score, self.black_score
        if result.winner == WHITE:
            white += result.points
        elif result.winner == BLACK:
            black += result.points
        state = replace(
            self,
            white_score=white,
            black_score=black,
            games_played=self.games_played + 1,
            is_crawford_game=False,
            crawford_done=self.crawford_done or self.is_crawford_game,
        )
        n = self.rules.length
        if n == UNLIMITED:
            return state
        if white >= n or black >= n:
            return replace(state, winner=WHITE if white >= n else BLACK)
        if self.rules.crawford and self.rules.cube and not state.crawford_done:
            if result.winner and (white == n - 1 or black == n - 1):
                return replace(state, is_crawford_game=True)
        return state

    def forfeit(self, color: str) -> "MatchState":
        """``color`` leaves the match: the opponent wins it (a money session just ends)."""
        if self.winner is not None:
            raise IllegalAction("match_over", gettext_noop("The match is over."))
        return replace(self, winner=other(color))

    def to_dict(self) -> dict:
        return {
            "rules": self.rules.to_dict(),
            "score": [self.white_score, self.black_score],
            "gamesPlayed": self.games_played,
            "crawfordGame": self.is_crawford_game,
            "crawfordDone": self.crawford_done,
            "postCrawford": self.post_crawford,
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "MatchState":
        return cls(
            rules=MatchRules.from_dict(data["rules"]),
            white_score=data["score"][0],
            black_score=data["score"][1],
            games_played=data["gamesPlayed"],
            is_crawford_game=data["crawfordGame"],
            crawford_done=data["crawfordDone"],
            winner=data["winner"],
        )


__all__ = ["UNLIMITED", "MatchRules", "MatchState"]

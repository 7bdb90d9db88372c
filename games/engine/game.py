"""One game of backgammon as an immutable state machine.

Every action is a method that checks the rules and returns a *new*
:class:`GameState`; an action that is not allowed raises
:class:`~games.engine.errors.IllegalAction` (or
:class:`~games.engine.errors.IllegalPlay` for a bad checker play) and changes
nothing. Dice are inputs: the engine never rolls, so a caller decides where
randomness comes from.

Phases:

``opening``       waiting for the opening roll (one die each; ties re-roll)
``turn``          the side on roll may double (when it can) or roll
``move``          dice are out; the side on roll must play them
``cube_offered``  a double is offered; the opponent takes, drops or beavers
``resign_offered`` a resignation is offered; the opponent accepts or rejects
``over``          the game has ended; ``result`` says how

>>> g = GameState.new(GameRules(cube=True))
>>> g = g.opening_roll(3, 1)        # White rolled 3, Black 1: White plays 3-1
>>> g.phase, g.position.turn, g.dice
('move', 'white', (3, 1))
>>> g = g.move("white", [{"from": 8, "to": 5}, {"from": 6, "to": 5}])
>>> g.phase, g.actor, g.can_double("black")
('turn', 'black', True)
>>> g = g.double("black").take("white")
>>> g.cube_value, g.cube_owner
(2, 'white')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .errors import IllegalAction
from .wire import from_wire, to_wire
from .moves import Step, check_play, legal_plays
from .position import BLACK, COLORS, WHITE, Position, other
from .phases import CUBE_OFFERED, MOVE, OPENING, OVER, PHASES, RESIGN_OFFERED, TURN
from .surface import Surface
from .scoring import GAMMON, KIND_MULTIPLIER, LEVEL_OF_KIND, RESIGN_LEVELS, SINGLE, TIE, points_for, win_kind
from games.engine.errors import gettext_noop



@dataclass(frozen=True)
class GameRules:
    """The options one game is played under (a match derives them per game)."""

    cube: bool = True
    cube_limit: int | None = 64  # None: no limit
    jacoby: bool = False
    beaver: bool = False
    raccoon: bool = False
    auto_doubles: int = 0  # how many tied opening rolls may double the cube
    double_backgammon: bool = False
    last_roll: bool = False
    crawford_game: bool = False  # this is the Crawford game: no cube at all

    @property
    def cube_in_play(self) -> bool:
        return self.cube and not self.crawford_game

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "GameRules":
        return from_wire(cls, data)


@dataclass(frozen=True)
class GameResult:
    """How a game ended. ``winner`` is None only for a last-roll tie."""

    winner: str | None
    kind: str  # single / gammon / backgammon / double_backgammon / tie
    reason: str  # bearoff / drop / resign / forfeit / last_roll
    cube_value: int
    points: int

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "GameResult | None":
        return None if data is None else from_wire(cls, data)


@dataclass(frozen=True)
class GameState(Surface):
    """A game in progress (or over). Build one with :meth:`new`."""

    rules: GameRules
    position: Position
    phase: str = OPENING
    dice: tuple | None = None
    cube_value: int = 1
    cube_owner: str | None = None
    cube_turned: bool = False
    raccoon_open: bool = False  # a beaver was just given: the doubler may raccoon
    auto_doubles_done: int = 0
    resign_offer: tuple | None = None  # (colour, level 1..3)
    resume_phase: str | None = None  # phase to return to when a resignation is rejected
    first_mover: str | None = None
    last_roll_pending: tuple | None = None  # (winner, kind, checkers the other side had left)
    last_play: tuple = ()  # the previous turn's steps
    last_mover: str | None = None
    result: GameResult | None = None
    turn_number: int = 0
    _turn_start: tuple = field(default=(), compare=False, repr=False)

    # -- construction -------------------------------------------------------
    @classmethod
    def new(cls, rules: GameRules | None = None, position: Position | None = None) -> "GameState":
        """A game waiting for its opening roll (``position`` for tests and analysis)."""
        return cls(rules=rules or GameRules(), position=position or Position.initial())

    # -- queries -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def actor(self) -> str | None:
        """The colour expected to act next (None: the server rolls the opening)."""
        if self.phase in (OPENING, OVER):
            return None
        if self.phase == RESIGN_OFFERED:
            return other(self.resign_offer[0])
        if self.phase == CUBE_OFFERED:
            return other(self.position.turn)
        return self.position.turn

    def can_double(self, color: str) -> bool:
        """Whether ``color`` may offer the cube now (its turn, before rolling)."""
        rules = self.rules
        return (
            self.phase == TURN
            and color == self.position.turn
            and rules.cube_in_play
            and self.last_roll_pending is None
            and self.cube_owner in (None, color)
            and not self.raccoon_open
            and (rules.cube_limit is None or self.cube_value * 2 <= rules.cube_limit)
        )

    def can_beaver(self, color: str) -> bool:
        return (
            self.phase == CUBE_OFFERED
            and color == other(self.position.turn)
            and self.rules.beaver
            and (self.rules.cube_limit is None or self.cube_value * 4 <= self.rules.cube_limit)
        )

    def can_raccoon(self, color: str) -> bool:
        return (
            self.phase == TURN
            and color == self.position.turn
            and self.raccoon_open
            and self.rules.raccoon
            and (self.rules.cube_limit is None or self.cube_value * 2 <= self.rules.cube_limit)
        )

    def needs_decision(self) -> bool:
        """In the ``turn`` phase: whether the side on roll has a cube choice to make.
        When it has none, the caller rolls for it at once (as the bot API's seed says)."""
        color = self.position.turn
        return self.phase == TURN and (self.can_double(color) or self.can_raccoon(color))

    def legal_plays(self) -> list:
        """The legal plays in the ``move`` phase (empty list in any other phase)."""
        if self.phase != MOVE:
            return []
        return legal_plays(self.position, self.dice)

    def max_resign_level(self, color: str) -> int:
        """The most ``color`` could lose now: 1 single, 2 gammon, 3 backgammon (4 double backgammon)."""
        kind = win_kind(self.position, other(color), double_backgammon=self.rules.double_backgammon)
        return LEVEL_OF_KIND[kind]

    # -- helpers -------------------------------------------------------------
    def _require(self, ok: bool, code: str, message: str) -> None:
        if not ok:
            raise IllegalAction(code, message)

    def _require_actor(self, color: str, phases: tuple) -> None:
        if color not in COLORS:
            raise IllegalAction("bad_color", gettext_noop("Unknown colour %(color)s."), params={"color": repr(color)})
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        pending_offer = self.phase in (CUBE_OFFERED, RESIGN_OFFERED)
        if self.phase not in phases and (pending_offer or self.actor == color):
            raise IllegalAction("wrong_phase", _phase_message(self))
        if self.actor != color:
            raise IllegalAction("not_your_turn", gettext_noop("It is not your turn."))
        if self.phase not in phases:  # pragma: no cover - covered by the two checks above
            raise IllegalAction("wrong_phase", _phase_message(self))

    def _finish(self, winner: str | None, kind: str, reason: str, **changes) -> "GameState":
        cube = changes.pop("cube_value", self.cube_value)
        points = 0 if kind == TIE else points_for(
            kind, cube, jacoby=self.rules.jacoby, cube_turned=self.cube_turned
        )
        final = dict(dice=None, resign_offer=None, resume_phase=None, raccoon_open=False)
        final.update(changes)
        return replace(self, phase=OVER, result=GameResult(winner, kind, reason, cube, points), **final)

    # -- actions ---------------------------------------------------------------
    def opening_roll(self, white_die: int, black_die: int) -> "GameState":
        """Each side's opening die. A tie re-rolls (and with automatic doubles
        turns the centred cube); otherwise the higher die moves first with both."""
        self._require(self.phase == OPENING, "wrong_phase", "The opening roll is over.")
        for die in (white_die, black_die):
            if type(die) is not int or not 1 <= die <= 6:
                raise IllegalAction("bad_dice", gettext_noop("Dice must be integers from 1 to 6."))
        if white_die == black_die:
            rules = self.rules
            if (
                rules.cube_in_play
                and self.auto_doubles_done < rules.auto_doubles
                and (rules.cube_limit is None or self.cube_value * 2 <= rules.cube_limit)
            ):
                return replace(self, cube_value=self.cube_value * 2, auto_doubles_done=self.auto_doubles_done + 1)
            return self
        first = WHITE if white_die > black_die else BLACK
        dice = (white_die, black_die) if first == WHITE else (black_die, white_die)
        return replace(
            self,
            position=self.position.with_turn(first),
            phase=MOVE,
            dice=dice,
            first_mover=first,
            turn_number=1,
            _turn_start=(self.position.checkers_on_board(first) + self.position.bar(first),),
        )

    def roll(self, color: str, dice) -> "GameState":
        """The side on roll rolls ``dice`` (given by the caller)."""
        self._require_actor(color, (TURN,))
        if (
            not isinstance(dice, (tuple, list))
            or len(dice) != 2
            or not all(type(d) is int and 1 <= d <= 6 for d in dice)
        ):
            raise IllegalAction("bad_dice", gettext_noop("Dice must be two integers from 1 to 6."))
        left = 15 - self.position.off(color)
        return replace(self, phase=MOVE, dice=tuple(dice), raccoon_open=False, _turn_start=(left,))

    def move(self, color: str, steps) -> "GameState":
        """Play the dice: ``steps`` is the whole play (list of Step or wire dicts)."""
        self._require_actor(color, (MOVE,))
        play = check_play(self.position, self.dice, steps)
        after = play.result
        base = dict(
            position=after,
            dice=None,
            last_play=tuple(play.steps),
            last_mover=color,
            turn_number=self.turn_number + 1,
        )
        if after.off(color) == 15:
            return self._bore_off_all(color, after, play, base)
        if self.last_roll_pending is not None:
            winner, kind, _left = self.last_roll_pending
            return self._finish(winner, kind, "bearoff", last_roll_pending=None, **base)
        return replace(self, phase=TURN, **base)

    def _bore_off_all(self, color: str, after: Position, play, base: dict) -> "GameState":
        rules = self.rules
        opponent = other(color)
        doubles = self.dice[0] == self.dice[1]
        left_before = self._turn_start[0] if self._turn_start else 15
        if self.last_roll_pending is not None:
            # The last-roll player finished too (seed 002's last-roll rule).
            if doubles and left_before <= 3:
                return self._finish(color, SINGLE, "last_roll", last_roll_pending=None, **base)
            if (not doubles and left_before <= 2) or (doubles and left_before == 4):
                return self._finish(None, TIE, "last_roll", last_roll_pending=None, **base)
            winner, kind, _left = self.last_roll_pending
            return self._finish(winner, kind, "bearoff", last_roll_pending=None, **base)
        kind = win_kind(after, color, double_backgammon=rules.double_backgammon)
        if rules.last_roll and color == self.first_mover and after.off(opponent) < 15:
            stole = doubles and left_before <= 3 and len(play.steps) < 4
            if not stole:
                left = 15 - after.off(opponent)
                return replace(
                    self, phase=TURN, last_roll_pending=(color, kind, left), **{**base, "position": after}
                )
        return self._finish(color, kind, "bearoff", **base)

    def double(self, color: str) -> "GameState":
        """Offer the cube (before rolling)."""
        self._require_actor(color, (TURN,))
        if not self.rules.cube:
            raise IllegalAction("no_cube", gettext_noop("This game is played without the doubling cube."))
        if self.rules.crawford_game:
            raise IllegalAction("crawford_game", gettext_noop("No doubling in the Crawford game."))
        if self.last_roll_pending is not None:
            raise IllegalAction("last_roll", gettext_noop("No doubling on the last roll."))
        if self.cube_owner not in (None, color):
            raise IllegalAction("not_cube_owner", gettext_noop("Your opponent owns the cube."))
        if self.raccoon_open:
            raise IllegalAction("not_cube_owner", gettext_noop("Your opponent owns the cube after the beaver."))
        if not self.can_double(color):
            raise IllegalAction("cube_limit", gettext_noop("The cube cannot go past %(cube_limit)s."),
                    params={"cube_limit": self.rules.cube_limit})
        return replace(self, phase=CUBE_OFFERED)

    def take(self, color: str) -> "GameState":
        """Accept the double: the value doubles and the taker owns the cube."""
        self._require_actor(color, (CUBE_OFFERED,))
        return replace(self, phase=TURN, cube_value=self.cube_value * 2, cube_owner=color, cube_turned=True)

    def drop(self, color: str) -> "GameState":
        """Refuse the double: the game is lost at the value before the double."""
        self._require_actor(color, (CUBE_OFFERED,))
        return self._finish(other(color), SINGLE, "drop")

    def beaver(self, color: str) -> "GameState":
        """Take and immediately redouble, keeping the cube (money option)."""
        self._require_actor(color, (CUBE_OFFERED,))
        if not self.rules.beaver:
            raise IllegalAction("no_beaver", gettext_noop("Beavers are not allowed in this game."))
        if not self.can_beaver(color):
            raise IllegalAction("cube_limit", gettext_noop("The cube cannot go past %(cube_limit)s."),
                    params={"cube_limit": self.rules.cube_limit})
        return replace(
            self,
            phase=TURN,
            cube_value=self.cube_value * 4,
            cube_owner=color,
            cube_turned=True,
            raccoon_open=self.rules.raccoon,
        )

    def raccoon(self, color: str) -> "GameState":
        """Redouble a beaver before rolling; the beaver keeps the cube (money option)."""
        self._require_actor(color, (TURN,))
        if not self.rules.raccoon:
            raise IllegalAction("no_raccoon", gettext_noop("Raccoons are not allowed in this game."))
        if not self.raccoon_open:
            raise IllegalAction("no_beaver_to_raccoon", gettext_noop("There is no beaver to raccoon."))
        if not self.can_raccoon(color):
            raise IllegalAction("cube_limit", gettext_noop("The cube cannot go past %(cube_limit)s."),
                    params={"cube_limit": self.rules.cube_limit})
        return replace(self, cube_value=self.cube_value * 2, raccoon_open=False)

    def offer_resignation(self, color: str, level: int) -> "GameState":
        """Offer to resign at 1 (single), 2 (gammon) or 3 (backgammon)."""
        if color not in COLORS:
            raise IllegalAction("bad_color", gettext_noop("Unknown colour %(color)s."), params={"color": repr(color)})
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        if self.phase == RESIGN_OFFERED:
            raise IllegalAction("resign_pending", gettext_noop("A resignation is already offered."))
        if self.phase in (OPENING, CUBE_OFFERED):
            raise IllegalAction("wrong_phase", _phase_message(self))
        if type(level) is not int or level not in RESIGN_LEVELS:
            raise IllegalAction("bad_level", gettext_noop("Resign at 1 (single), 2 (gammon) or 3 (backgammon)."))
        return replace(self, phase=RESIGN_OFFERED, resign_offer=(color, level), resume_phase=self.phase)

    def accept_resignation(self, color: str) -> "GameState":
        self._require_actor(color, (RESIGN_OFFERED,))
        resigner, level = self.resign_offer
        return self._finish(color, RESIGN_LEVELS[level], "resign")

    def reject_resignation(self, color: str) -> "GameState":
        self._require_actor(color, (RESIGN_OFFERED,))
        return replace(self, phase=self.resume_phase, resign_offer=None, resume_phase=None)

    def resign(self, color: str) -> "GameState":
        """Concede now at the most the position could lose (the bot API's plain resign)."""
        if color not in COLORS:
            raise IllegalAction("bad_color", gettext_noop("Unknown colour %(color)s."), params={"color": repr(color)})
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        kind = win_kind(self.position, other(color), double_backgammon=self.rules.double_backgammon)
        return self._finish(other(color), kind, "resign")

    def forfeit(self, color: str, *, scored: bool = True) -> "GameState":
        """``color`` leaves or runs out of time: the opponent wins (the match decides the rest).

        ``scored``: the game is lost at its stakes (the cube times single, gammon or
        backgammon as the position stands), as in a money session. A match to N points is
        awarded whole instead, so its game in progress scores nothing (``scored=False``:
        a single with 0 points) and the score stays the one reached by play.
        """
        if color not in COLORS:
            raise IllegalAction("bad_color", gettext_noop("Unknown colour %(color)s."), params={"color": repr(color)})
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        if not scored:
            return replace(self, phase=OVER, dice=None, resign_offer=None, resume_phase=None, raccoon_open=False,
                           result=GameResult(other(color), SINGLE, "forfeit", self.cube_value, 0))
        kind = win_kind(self.position, other(color), double_backgammon=self.rules.double_backgammon)
        return self._finish(other(color), kind, "forfeit")

    def abort(self) -> "GameState":
        """End the game with no result (an administrator's abort)."""
        if self.phase == OVER:
            raise IllegalAction("game_over", gettext_noop("The game is over."))
        return replace(self, phase=OVER, dice=None, result=GameResult(None, TIE, "aborted", self.cube_value, 0))

    # -- persistence -------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-ready dict; :meth:`from_dict` restores an equal state."""
        return {
            "rules": self.rules.to_dict(),
            "position": self.position.to_dict(),
            "phase": self.phase,
            "dice": list(self.dice) if self.dice else None,
            "cubeValue": self.cube_value,
            "cubeOwner": self.cube_owner,
            "cubeTurned": self.cube_turned,
            "raccoonOpen": self.raccoon_open,
            "autoDoublesDone": self.auto_doubles_done,
            "resignOffer": list(self.resign_offer) if self.resign_offer else None,
            "resumePhase": self.resume_phase,
            "firstMover": self.first_mover,
            "lastRollPending": list(self.last_roll_pending) if self.last_roll_pending else None,
            "lastPlay": [s.to_dict() for s in self.last_play],
            "lastMover": self.last_mover,
            "result": self.result.to_dict() if self.result else None,
            "turnNumber": self.turn_number,
            "turnStart": list(self._turn_start),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        return cls(
            rules=GameRules.from_dict(data["rules"]),
            position=Position.from_dict(data["position"]),
            phase=data["phase"],
            dice=tuple(data["dice"]) if data["dice"] else None,
            cube_value=data["cubeValue"],
            cube_owner=data["cubeOwner"],
            cube_turned=data["cubeTurned"],
            raccoon_open=data["raccoonOpen"],
            auto_doubles_done=data["autoDoublesDone"],
            resign_offer=tuple(data["resignOffer"]) if data["resignOffer"] else None,
            resume_phase=data["resumePhase"],
            first_mover=data["firstMover"],
            last_roll_pending=tuple(data["lastRollPending"]) if data["lastRollPending"] else None,
            last_play=tuple(Step(s["from"], s["to"]) for s in data["lastPlay"]),
            last_mover=data["lastMover"],
            result=GameResult.from_dict(data["result"]),
            turn_number=data["turnNumber"],
            _turn_start=tuple(data.get("turnStart", ())),
        )


def _phase_message(state: GameState) -> str:
    return {
        OPENING: gettext_noop("The game has not started: the opening roll comes first."),
        TURN: gettext_noop("The dice have not been rolled yet."),
        MOVE: gettext_noop("The dice are rolled: play them first."),
        CUBE_OFFERED: gettext_noop("A double is offered: it must be taken or dropped first."),
        RESIGN_OFFERED: gettext_noop("A resignation is offered: it must be accepted or rejected first."),
        OVER: gettext_noop("The game is over."),
    }[state.phase]


__all__ = [
    "OPENING",
    "TURN",
    "MOVE",
    "CUBE_OFFERED",
    "RESIGN_OFFERED",
    "OVER",
    "PHASES",
    "GameRules",
    "GameResult",
    "GameState",
    "GAMMON",
    "KIND_MULTIPLIER",
]

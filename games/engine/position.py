"""Positions in the absolute frame of RULES.md.

Points are numbered 1..24 for both colours. White moves from 24 toward 1 (home
board 1-6, enters on ``25 - die``); Black moves from 1 toward 24 (home board
19-24, enters on ``die``). ``board[p] > 0`` counts White checkers on point p,
``board[p] < 0`` Black checkers; ``board[0]`` is unused. Bars and borne-off
checkers are separate counters.

>>> pos = Position.initial()
>>> pos.pip_count(WHITE), pos.pip_count(BLACK)
(167, 167)
>>> pos.board[24], pos.board[1]
(2, -2)
>>> pos.mirror() == pos.with_turn(BLACK)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidPosition
from games.engine.errors import gettext_noop

WHITE = "white"
BLACK = "black"
COLORS = (WHITE, BLACK)
CHECKERS = 15


def other(color: str) -> str:
    """The opponent of ``color``."""
    if color == WHITE:
        return BLACK
    if color == BLACK:
        return WHITE
    raise InvalidPosition("bad_color", gettext_noop("Unknown colour %(color)s: use 'white' or 'black'."),
            params={"color": repr(color)})


_INITIAL_BOARD = [0] * 25
for _p, _n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    _INITIAL_BOARD[_p] = _n
    _INITIAL_BOARD[25 - _p] = -_n
_INITIAL_BOARD = tuple(_INITIAL_BOARD)


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable backgammon position with the side on roll.

    Use :meth:`initial` for the starting position and :meth:`from_dict` for the
    wire format (``board``, ``whiteBar``, ``blackBar``, ``whiteOff``,
    ``blackOff``, ``turn``).
    """

    board: tuple
    white_bar: int = 0
    black_bar: int = 0
    white_off: int = 0
    black_off: int = 0
    turn: str = WHITE

    # -- construction -------------------------------------------------------
    @classmethod
    def initial(cls, turn: str = WHITE) -> "Position":
        return cls(_INITIAL_BOARD, 0, 0, 0, 0, turn)

    @classmethod
    def from_dict(cls, data: dict, *, turn: str | None = None) -> "Position":
        """Build and validate a position from the wire format.

        Raises :class:`InvalidPosition` with a readable message on bad input.
        """
        if not isinstance(data, dict):
            raise InvalidPosition("bad_position", gettext_noop("A position must be a JSON object."))
        board = data.get("board")
        if not isinstance(board, (list, tuple)) or len(board) != 25:
            raise InvalidPosition("bad_board", gettext_noop("'board' must be an array of 25 integers (index 0 unused)."))
        if not all(type(v) is int for v in board):
            raise InvalidPosition("bad_board", gettext_noop("'board' must contain only integers."))
        counts = []
        for key in ("whiteBar", "blackBar", "whiteOff", "blackOff"):
            value = data.get(key, 0)
            if type(value) is not int or value < 0:
                raise InvalidPosition("bad_counter", gettext_noop("'%(key)s' must be a non-negative integer."),
                        params={"key": key})
            counts.append(value)
        side = turn if turn is not None else data.get("turn", WHITE)
        if side not in COLORS:
            raise InvalidPosition("bad_turn", gettext_noop("'turn' must be 'white' or 'black'."))
        pos = cls(tuple([0] + list(board[1:])), *counts, side)
        pos.validate()
        return pos

    def validate(self) -> None:
        """Raise :class:`InvalidPosition` unless each side has exactly 15 checkers."""
        white = sum(v for v in self.board[1:] if v > 0) + self.white_bar + self.white_off
        black = -sum(v for v in self.board[1:] if v < 0) + self.black_bar + self.black_off
        if white != CHECKERS or black != CHECKERS:
            raise InvalidPosition(
                "bad_checker_count",
                gettext_noop("Each side needs 15 checkers; White has %(white)s, Black has %(black)s."),
                        params={"white": white, "black": black},
            )

    def to_dict(self) -> dict:
        """The wire format of RULES.md / the bot API."""
        return {
            "board": list(self.board),
            "whiteBar": self.white_bar,
            "blackBar": self.black_bar,
            "whiteOff": self.white_off,
            "blackOff": self.black_off,
            "turn": self.turn,
        }

    # -- queries -----------------------------------------------------------
    def bar(self, color: str) -> int:
        return self.white_bar if color == WHITE else self.black_bar

    def off(self, color: str) -> int:
        return self.white_off if color == WHITE else self.black_off

    def pip_count(self, color: str) -> int:
        """Pips ``color`` needs to bear everything off (bar counts 25)."""
        board = self.board
        if color == WHITE:
            return sum(p * board[p] for p in range(1, 25) if board[p] > 0) + 25 * self.white_bar
        return sum((25 - p) * -board[p] for p in range(1, 25) if board[p] < 0) + 25 * self.black_bar

    def checkers_on_board(self, color: str) -> int:
        return CHECKERS - self.off(color) - self.bar(color)

    def mover_points(self, color: str) -> list:
        """``color``'s checkers seen from its own side: index i is its i-point
        (1..24), index 25 the bar, index 0 the checkers borne off."""
        board = self.board
        if color == WHITE:
            own = [v if v > 0 else 0 for v in board]
            own[0] = self.white_off
            own.append(self.white_bar)
        else:
            own = [0] * 26
            for p in range(1, 25):
                v = board[25 - p]
                if v < 0:
                    own[p] = -v
            own[0] = self.black_off
            own[25] = self.black_bar
        return own

    def key(self) -> str:
        """The data file's play key: ``board[1..24]`` then ``|whiteBar,blackBar,whiteOff,blackOff``."""
        return (
            ",".join(str(v) for v in self.board[1:])
            + f"|{self.white_bar},{self.black_bar},{self.white_off},{self.black_off}"
        )

    # -- transformations ---------------------------------------------------
    def with_turn(self, turn: str) -> "Position":
        other(turn)  # validates
        return Position(self.board, self.white_bar, self.black_bar, self.white_off, self.black_off, turn)

    def mirror(self) -> "Position":
        """Swap the colours: White's point p becomes Black's point 25 - p."""
        board = (0,) + tuple(-self.board[25 - p] for p in range(1, 25))
        return Position(board, self.black_bar, self.white_bar, self.black_off, self.white_off, other(self.turn))

    def is_race(self) -> bool:
        """No contact left: every White checker is below every Black checker."""
        if self.white_bar or self.black_bar:
            return False
        board = self.board
        lowest_black = next((p for p in range(1, 25) if board[p] < 0), 25)
        highest_white = next((p for p in range(24, 0, -1) if board[p] > 0), 0)
        return highest_white < lowest_black

    def __str__(self) -> str:  # a compact human-readable dump
        return f"Position({self.key()} turn={self.turn})"

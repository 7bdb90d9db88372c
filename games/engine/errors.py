"""Typed errors of the rules engine.

Every error is a :class:`ValueError` carrying a stable machine-readable ``code``
(used on the wire by the websocket protocol and the bot API) and a ``message`` a
player can read.

>>> try:
...     raise IllegalPlay("blocked_point", "Point 6 is blocked.")
... except ValueError as exc:
...     print(exc.code, "-", exc.message)
blocked_point - Point 6 is blocked.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: a rule was broken or an input could not be understood."""

    default_code = "engine_error"

    def __init__(self, code: str | None = None, message: str = "", **details):
        self.code = code or self.default_code
        self.message = message or self.code.replace("_", " ")
        self.details = details
        super().__init__(self.message)

    def as_dict(self) -> dict:
        """The wire form: ``{"code": ..., "message": ...}`` (plus any details)."""
        out = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class InvalidPosition(EngineError):
    """A position that cannot exist (wrong checker count, both colours on a point...)."""

    default_code = "invalid_position"


class InvalidPlay(EngineError):
    """A submitted play that is not a play at all: not a list of steps, a step that names no
    point (syntax; python-chess's ``InvalidMoveError``). Codes ``bad_play``, ``bad_step``,
    ``too_many_steps``."""

    default_code = "bad_play"


class IllegalPlay(EngineError):
    """A well-formed checker play that the rules refuse for the position and dice
    (python-chess's ``IllegalMoveError``)."""

    default_code = "illegal_play"


class IllegalAction(EngineError):
    """A game action (roll, double, take, resign...) not allowed in this state."""

    default_code = "illegal_action"


class NotationError(EngineError):
    """Move notation that cannot be parsed."""

    default_code = "bad_notation"


class IdError(EngineError):
    """A GNU Backgammon Position ID or Match ID that cannot be decoded."""

    default_code = "bad_id"

"""Typed errors of the analysis, each with a stable ``code`` (a ``ValueError``, like the engine's).

Codes: ``engine_unavailable`` (bgsage cannot be loaded here), ``bad_ply`` (unknown
analysis depth), ``bad_events`` (an event log that does not replay: missing
``game_start``, an illegal action), ``wrong_phase`` (a hint or tutor check asked for in a
phase that has no such decision), ``bad_action`` (a cube action that is not one of
``double``/``roll``/``take``/``drop``/``beaver``), ``bad_play`` (a play that is not legal),
``engine_mismatch`` (the evaluator's legal plays miss the play made: never seen, refused
rather than answered wrongly).

Messages are marked English (``gettext_noop``) with their values in ``params``; ``message``
is worded when read, in the active language, as the engine's refusals are
(:func:`games.engine.errors.word`).
"""

from __future__ import annotations

from games.engine.errors import EngineError, gettext_noop, word

__all__ = ["AnalysisError", "gettext_noop"]


class AnalysisError(ValueError):
    def __init__(self, code: str, message: str, *, params: dict | None = None):
        self.code = code
        self.template = message
        self.params = params or {}
        super().__init__(message % self.params if self.params else message)

    @classmethod
    def from_engine(cls, code: str, exc: EngineError) -> "AnalysisError":
        """The engine's refusal ``exc`` under ``code``: its own words, worded when read."""
        return cls(code, exc.template, params=exc.params)

    @property
    def message(self) -> str:
        return word(self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}

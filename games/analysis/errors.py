"""Typed errors of the analysis, each with a stable ``code`` (a ``ValueError``, like the engine's).

Codes: ``engine_unavailable`` (bgsage cannot be loaded here), ``bad_ply`` (unknown
analysis depth), ``bad_events`` (an event log that does not replay: missing
``game_start``, an illegal action), ``wrong_phase`` (a hint or tutor check asked for in a
phase that has no such decision), ``bad_action`` (a cube action that is not one of
``double``/``roll``/``take``/``drop``/``beaver``), ``bad_play`` (a play that is not legal),
``engine_mismatch`` (the evaluator's legal plays miss the play made: never seen, refused
rather than answered wrongly).
"""

from __future__ import annotations


class AnalysisError(ValueError):
    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}

"""Errors of the service layer: each has a stable ``code``, a readable
``message`` and the HTTP ``status`` the bot API answers with.

Engine errors (:mod:`games.engine.errors`) pass through the services
unchanged; :func:`http_status` maps them too, so the API and the websocket
consumers answer every refusal the same way.
"""

from __future__ import annotations

from games.engine.errors import EngineError, IllegalAction, IllegalPlay, InvalidPlay


class ServiceError(ValueError):
    status = 400
    default_code = "bad_request"

    def __init__(self, code: str | None = None, message: str = ""):
        self.code = code or self.default_code
        self.message = message or self.code.replace("_", " ")
        super().__init__(self.message)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class BadRequest(ServiceError):
    status = 400
    default_code = "bad_request"


class Forbidden(ServiceError):
    status = 403
    default_code = "forbidden"


class NotFound(ServiceError):
    status = 404
    default_code = "not_found"


class Conflict(ServiceError):
    """The request is well formed but the game has moved on (stale version, wrong turn...)."""

    status = 409
    default_code = "conflict"


class Limited(ServiceError):
    """A fair-use limit is reached (too many jobs, uploads, hints): try again later.
    ``retry_after`` (seconds) is sent as the ``Retry-After`` header when known."""

    status = 429
    default_code = "limited"

    def __init__(self, code: str | None = None, message: str = "", retry_after: int | None = None):
        self.retry_after = retry_after
        super().__init__(code, message)

    def as_dict(self) -> dict:
        out = super().as_dict()
        if self.retry_after is not None:
            out["retryAfter"] = self.retry_after
        return out


# Engine codes that mean "not now" rather than "never": answered with 409.
_CONFLICT_CODES = {"not_your_turn", "wrong_phase", "game_over", "resign_pending", "match_over"}


def http_status(exc: Exception) -> int:
    """The HTTP status for a refused action."""
    if isinstance(exc, ServiceError):
        return exc.status
    if isinstance(exc, InvalidPlay):
        return 400  # not a play at all (syntax)
    if isinstance(exc, (IllegalAction, IllegalPlay)):
        return 409 if exc.code in _CONFLICT_CODES else 422
    if isinstance(exc, EngineError):
        return 400
    return 500


def error_dict(exc: Exception) -> dict:
    """``{"code": ..., "message": ...}`` for any service or engine error."""
    return {"code": exc.code, "message": exc.message}

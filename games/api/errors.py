"""Errors of the HTTP layer, and the one shape every error answer has:
``{"error": {"code": ..., "message": ...}}``."""

from __future__ import annotations

import logging

from django.http import JsonResponse

from games.engine.errors import EngineError
from games.errors import ServiceError, http_status
from django.utils.translation import gettext

logger = logging.getLogger(__name__)


class ApiError(Exception):
    """A refusal decided by the HTTP layer itself (auth, parsing, rate limit)."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def found_or_404(model, pk, code: str, message: str):
    """The ``model`` row ``pk``, or the 404 refusal ``code`` (every endpoint's get-or-404)."""
    found = model.objects.filter(pk=pk).first()
    if found is None:
        raise ApiError(404, code, message)
    return found


def error_response(status: int, code: str, message: str, headers: dict | None = None) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def response_for(exc: Exception) -> JsonResponse:
    """The JSON error answer for any refusal (API, service or engine error)."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.headers)
    if isinstance(exc, (ServiceError, EngineError)):
        return error_response(http_status(exc), exc.code, exc.message)
    logger.exception("bot API: unexpected error")
    return error_response(500, "server_error", gettext("Something went wrong on the server."))


REFUSALS = (ApiError, ServiceError, EngineError)

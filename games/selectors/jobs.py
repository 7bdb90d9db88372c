"""Reads of background jobs: a job as the pages and the API show it."""

from __future__ import annotations

from games.engine.errors import Message, word
from games.models import Job


def _worded(template: str, params: dict) -> str:
    """A stored line in the reader's words: ``template`` is marked English (the services' and
    the analysis core's ``gettext_noop``), ``params`` its values (a value kept as
    ``{"template", "params"}`` is a marked word of its own, worded too)."""
    if not template:
        return ""
    return word(template, {k: _value(v) for k, v in (params or {}).items()})


def _value(value):
    if isinstance(value, dict) and isinstance(value.get("template"), str):
        return Message(value["template"], {k: _value(v) for k, v in (value.get("params") or {}).items()})
    return value


def job_line(job: Job) -> str:
    """The job's progress line in the reader's words (``message``, ``message_params``)."""
    return _worded(job.message, job.message_params)


def job_error(job: Job) -> str:
    """Why the job ended without a result, in the reader's words (``error``, ``error_params``;
    ``error_code`` is the stable code)."""
    return _worded(job.error, job.error_params)


def job_dict(job: Job | None) -> dict | None:
    if job is None:
        return None
    return {"id": job.pk, "kind": job.kind, "status": job.status, "progress": round(job.progress, 3),
            "message": job_line(job), "error": job_error(job) or None, "errorCode": job.error_code or None,
            "attempts": job.attempts,
            "createdAt": job.created_at.isoformat() if job.created_at else None,
            "finishedAt": job.finished_at.isoformat() if job.finished_at else None}

"""Reads of background jobs: a job as the pages and the API show it."""

from __future__ import annotations

from django.utils.translation import gettext

from games.models import Job


def job_line(job: Job) -> str:
    """The job's progress line in the reader's words: ``message`` is marked English (the
    services' and the analysis core's ``gettext_noop``), ``message_params`` its values."""
    if not job.message:
        return ""
    text = gettext(job.message)
    if not job.message_params:
        return text
    try:
        return text % job.message_params
    except (KeyError, ValueError, TypeError):  # a translation that lost a placeholder: the English
        return job.message % job.message_params


def job_dict(job: Job | None) -> dict | None:
    if job is None:
        return None
    return {"id": job.pk, "kind": job.kind, "status": job.status, "progress": round(job.progress, 3),
            "message": job_line(job), "error": job.error or None, "attempts": job.attempts,
            "createdAt": job.created_at.isoformat() if job.created_at else None,
            "finishedAt": job.finished_at.isoformat() if job.finished_at else None}

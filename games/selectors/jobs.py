"""Reads of background jobs: a job as the pages and the API show it."""

from __future__ import annotations

from games.models import Job


def job_dict(job: Job | None) -> dict | None:
    if job is None:
        return None
    return {"id": job.pk, "kind": job.kind, "status": job.status, "progress": round(job.progress, 3),
            "message": job.message, "error": job.error or None, "attempts": job.attempts,
            "createdAt": job.created_at.isoformat() if job.created_at else None,
            "finishedAt": job.finished_at.isoformat() if job.finished_at else None}

"""Long background jobs with progress: start, report, finish, heal.

A job is a :class:`~games.models.Job` row. :func:`job_start` creates it and, after the
commit, hands it to the workers (``games.tasks`` registers how, :func:`set_enqueue`).
While it runs the worker reports ``(fraction, message)`` with :func:`job_progress`, which
also refreshes its heartbeat; a page polls the job (or its subject's JSON) to show it
live. A job whose worker died stops beating: :func:`jobs_heal` (periodic) queues it again
(up to ``MAX_ATTEMPTS``) or marks it failed with the reason, so no job stays "running"
forever. A job that raised is failed with its error and may be retried by its owner.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.errors import Conflict
from games.models import Job

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
STALE_AFTER = timedelta(seconds=30)  # no heartbeat for this long: the worker is gone

_enqueue = None


def set_enqueue(fn) -> None:
    """``fn(job_id)`` queues a job for the workers (set by ``games.tasks``)."""
    global _enqueue
    _enqueue = fn


def _queue_on_commit(job_id: int) -> None:
    if _enqueue is None:  # pragma: no cover - games.tasks is imported at start-up
        logger.warning("no worker queue configured: job %s waits", job_id)
        return
    transaction.on_commit(lambda: _enqueue(job_id))


def job_start(*, kind: str, key: str, params: dict | None = None, by=None) -> Job:
    """Start a job, or return the one already queued or running for the same ``kind`` and ``key``."""
    with transaction.atomic():
        running = (Job.objects.select_for_update().filter(kind=kind, key=key, status__in=[Job.QUEUED, Job.RUNNING])
                   .order_by("-pk").first())
        if running is not None:
            return running
        job = Job.objects.create(kind=kind, key=key, params=params or {}, created_by=by, message="Waiting for a worker")
        _queue_on_commit(job.pk)
        return job


def job_retry(*, job_id: int, by=None) -> Job:
    """Queue a failed job again."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status != Job.FAILED:
            raise Conflict("job_not_failed", "Only a failed job can be retried.")
        job.status, job.progress, job.error, job.attempts = Job.QUEUED, 0.0, "", 0
        job.message = "Waiting for a worker"
        job.save(update_fields=["status", "progress", "error", "attempts", "message"])
        _queue_on_commit(job.pk)
        return job


def job_begin(job_id: int) -> Job | None:
    """A worker takes the job (None when it is not queued any more: done, failed, taken)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status != Job.QUEUED:
            return None
        now = timezone.now()
        job.status, job.attempts, job.started_at, job.heartbeat_at = Job.RUNNING, job.attempts + 1, now, now
        job.message = "Started"
        job.save(update_fields=["status", "attempts", "started_at", "heartbeat_at", "message"])
        return job


def job_progress(job_id: int, fraction: float, message: str = "") -> None:
    """Report progress (0..1) and refresh the heartbeat."""
    Job.objects.filter(pk=job_id, status=Job.RUNNING).update(
        progress=max(0.0, min(1.0, float(fraction))), message=message[:200], heartbeat_at=timezone.now())


def job_done(job_id: int, message: str = "Done") -> None:
    Job.objects.filter(pk=job_id).update(status=Job.DONE, progress=1.0, message=message[:200],
                                         finished_at=timezone.now())


def job_failed(job_id: int, error: str) -> None:
    Job.objects.filter(pk=job_id).update(status=Job.FAILED, error=error[:2000], message="Failed",
                                         finished_at=timezone.now())


def jobs_heal(*, now=None) -> int:
    """Running jobs whose heartbeat stopped: queue them again, or fail them after
    ``MAX_ATTEMPTS``. Returns how many were healed."""
    at = now or timezone.now()
    healed = 0
    for job_id in Job.objects.filter(status=Job.RUNNING, heartbeat_at__lt=at - STALE_AFTER).values_list("pk", flat=True):
        with transaction.atomic():
            job = Job.objects.select_for_update().get(pk=job_id)
            if job.status != Job.RUNNING or job.heartbeat_at >= at - STALE_AFTER:
                continue
            if job.attempts >= MAX_ATTEMPTS:
                job.status, job.finished_at = Job.FAILED, at
                job.error = f"The worker stopped {job.attempts} times while running this job."
                job.message = "Failed"
                job.save(update_fields=["status", "finished_at", "error", "message"])
            else:
                job.status, job.message = Job.QUEUED, "Restarting after a worker stopped"
                job.save(update_fields=["status", "message"])
                _queue_on_commit(job.pk)
            healed += 1
    # Queued jobs whose queue entry was lost (a Redis restart) are queued again too.
    for job_id in Job.objects.filter(status=Job.QUEUED, created_at__lt=at - STALE_AFTER * 4,
                                     started_at__isnull=True).values_list("pk", flat=True)[:50]:
        _queue_on_commit(job_id)
    return healed

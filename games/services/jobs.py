"""Long background jobs with progress: start, report, finish, cancel, heal.

A job is a :class:`~games.models.Job` row. :func:`job_start` creates it and, after the
commit, hands it to the long queue (``games.tasks.long`` registers how, :func:`set_enqueue`)
with a priority: a player's own request (:data:`PRIORITY_OWN`) before automatic work
(:data:`PRIORITY_AUTO`). While it runs the worker reports ``(fraction, message)`` through
:func:`reporter`, which refreshes its heartbeat and stops the job (:class:`JobStopped`) once
its time limit (``GAMES_JOB_TIME_LIMIT``) is passed (``timed_out``) or it was cancelled
(:func:`job_cancel`, ``cancelled``). A page polls the job (or its subject's JSON) to show it
live. A job whose worker died stops beating: :func:`jobs_heal` (periodic) queues it again
(up to ``MAX_ATTEMPTS``) or marks it failed with the reason, so no job stays "running"
forever. A job that raised, was cancelled or timed out may be queued again by its owner.

Fair use (``docs/SECURITY.md``): :func:`jobs_check_quota` refuses a player's new job while
``GAMES_JOBS_PER_USER`` of theirs are queued or running (``too_many_jobs``, 429).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import conf
from games.engine.errors import Message
from games.errors import Conflict, Limited
from games.models import Job, Player
from django.utils.translation import gettext, gettext_noop

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 3
STALE_AFTER = timedelta(seconds=30)  # no heartbeat for this long: the worker is gone

#: Queue priorities (higher first): a player's own request, then automatic work.
PRIORITY_OWN = 50
PRIORITY_AUTO = 10

#: A job's progress lines, marked English worded when shown (``games.selectors.jobs.job_line``).
WAITING = gettext_noop("Waiting for a worker")
STARTED = gettext_noop("Started")
DONE = gettext_noop("Done")
FAILED = gettext_noop("Failed")
CANCELLED = gettext_noop("Cancelled")
STOPPED = gettext_noop("Stopped: over the time limit")
RESTARTING = gettext_noop("Restarting after a worker stopped")

_enqueue = None


class JobStopped(Exception):
    """Raised by a job's report when it must stop: ``status`` is ``timed_out`` or ``cancelled``."""

    def __init__(self, status: str):
        self.status = status
        super().__init__(status)


def set_enqueue(fn) -> None:
    """``fn(job_id, priority)`` queues a job for the long workers (set by ``games.tasks.long``)."""
    global _enqueue
    _enqueue = fn


def _queue_on_commit(job_id: int, priority: int = PRIORITY_AUTO) -> None:
    if _enqueue is None:  # pragma: no cover - games.tasks is imported at start-up
        logger.warning("no worker queue configured: job %s waits", job_id)
        return
    transaction.on_commit(lambda: _enqueue(job_id, priority))


def _priority(job: Job) -> int:
    return PRIORITY_OWN if job.created_by_id else PRIORITY_AUTO


def time_limit() -> float:
    return float(conf.value("GAMES_JOB_TIME_LIMIT"))


def jobs_check_quota(player: Player) -> None:
    """Refuse (429 ``too_many_jobs``) when ``player`` already has ``GAMES_JOBS_PER_USER`` jobs
    queued or running. Call it inside the transaction that starts the job, with the player's
    row locked (:func:`lock_player`), so two requests at once cannot both pass."""
    limit = int(conf.value("GAMES_JOBS_PER_USER"))
    active = Job.objects.filter(created_by=player, status__in=Job.ACTIVE).count()
    if active >= limit:
        raise Limited("too_many_jobs",
                      gettext("You have %(active)s analyses queued or running, the most one player may have at once. A slot frees when one of them finishes (or when you cancel one).")
                              % {"active": active})


def lock_player(player: Player) -> None:
    """Lock the player's row until the end of the transaction (their job quota is checked under it)."""
    Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True).first()


def job_start(*, kind: str, key: str, params: dict | None = None, by=None) -> Job:
    """Start a job, or return the one already queued or running for the same ``kind`` and ``key``
    (a player asking for one already queued by the automatic work moves it up the queue)."""
    with transaction.atomic():
        running = (Job.objects.select_for_update().filter(kind=kind, key=key, status__in=Job.ACTIVE)
                   .order_by("-pk").first())
        if running is not None:
            if by is not None and running.status == Job.QUEUED:
                _queue_on_commit(running.pk, PRIORITY_OWN)  # the first of the two entries to run takes it
            return running
        job = Job.objects.create(kind=kind, key=key, params=params or {}, created_by=by, message=WAITING)
        _queue_on_commit(job.pk, _priority(job))
        return job


def job_retry(*, job_id: int, by=None) -> Job:
    """Queue again a job that failed, was cancelled or timed out."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status not in Job.RETRYABLE:
            raise Conflict("job_not_failed", gettext("Only a failed, cancelled or timed-out job can be queued again."))
        job.status, job.progress, job.attempts = Job.QUEUED, 0.0, 0
        job.error, job.error_code, job.error_params = "", "", {}
        job.message, job.message_params = WAITING, {}
        if by is not None:
            job.created_by = by
        job.started_at = job.finished_at = None
        job.save(update_fields=["status", "progress", "error", "error_code", "error_params", "attempts", "message",
                                "message_params", "created_by", "started_at", "finished_at"])
        _queue_on_commit(job.pk, _priority(job))
        return job


def job_cancel(*, job_id: int) -> Job:
    """Cancel a queued or running job: a queued one never starts, a running one stops at its
    next report of progress. The caller decides who may (``services.analysis``)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status not in Job.ACTIVE:
            raise Conflict("job_not_active", gettext("Only a queued or running job can be cancelled."))
        job.status, job.message, job.message_params, job.finished_at = Job.CANCELLED, CANCELLED, {}, timezone.now()
        job.save(update_fields=["status", "message", "message_params", "finished_at"])
        return job


def job_must_wait(job_id: int) -> bool:
    """Whether a queued automatic job must wait its turn: ``GAMES_AUTO_JOBS_AT_ONCE`` automatic
    jobs already run (site-wide), so the other long threads stay free for players' own
    requests. A read only (no lock): the cap is kept to within a job or two when several
    workers check at the same instant."""
    cap = int(conf.value("GAMES_AUTO_JOBS_AT_ONCE"))
    if cap <= 0:
        return False
    if not Job.objects.filter(pk=job_id, status=Job.QUEUED, created_by__isnull=True).exists():
        return False
    return Job.objects.filter(status=Job.RUNNING, created_by__isnull=True).count() >= cap


def job_begin(job_id: int) -> Job | None:
    """A worker takes the job (None when it is not queued any more: done, failed, taken)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status != Job.QUEUED:
            return None
        now = timezone.now()
        job.status, job.attempts, job.started_at, job.heartbeat_at = Job.RUNNING, job.attempts + 1, now, now
        job.message, job.message_params = STARTED, {}
        job.save(update_fields=["status", "attempts", "started_at", "heartbeat_at", "message", "message_params"])
        return job


def _stored(message, limit: int) -> tuple:
    """``(template, params)`` of a line kept to be worded when shown: a marked English text, or a
    :class:`games.engine.errors.Message` (or a refusal with ``template`` and ``params``) whose
    values are kept apart; a value that is itself a ``Message`` is kept as ``{"template",
    "params"}`` so that it is worded too (``games.selectors.jobs``)."""
    template = getattr(message, "template", None)
    if template is None:
        return str(message)[:limit], {}
    return template[:limit], {k: _value(v) for k, v in (getattr(message, "params", None) or {}).items()}


def _value(value):
    if isinstance(value, (int, float)):
        return value
    if getattr(value, "template", None) is not None:
        return {"template": value.template, "params": {k: _value(v) for k, v in (value.params or {}).items()}}
    return str(value)


def _line(message) -> dict:
    """The fields of a progress line: a marked English text (a :class:`games.engine.errors.Message`
    keeps its values apart), worded when shown (``games.selectors.jobs.job_line``)."""
    template, params = _stored(message, 200)
    return {"message": template, "message_params": params}


def _error(code: str, error) -> dict:
    """The fields of why a job ended without a result: a stable ``code`` and a line worded when
    shown (``games.selectors.jobs.job_error``), as :func:`_line`."""
    template, params = _stored(error, 2000)
    return {"error_code": code[:40], "error": template, "error_params": params}


#: Why a job ended without a result (``Job.error_code`` -> its marked line).
JOB_CRASHED = gettext_noop("The job stopped on an unexpected error (%(detail)s).")
JOB_TIMED_OUT = gettext_noop("The job ran for more than its time limit of %(seconds)s s and was stopped.")
WORKER_LOST = gettext_noop("The worker running this job stopped too often (attempts: %(attempts)s).")
UNKNOWN_KIND = gettext_noop("No worker knows jobs of kind %(kind)s.")


def failure_of(exc: BaseException) -> tuple:
    """``(code, line)`` for a job whose function raised ``exc``: a refusal with a code and a marked
    text (the analysis core's ``AnalysisError``, the engine's) keeps both, worded when shown;
    anything else is ``job_crashed`` with the exception's own text as a value."""
    code, template = getattr(exc, "code", None), getattr(exc, "template", None)
    if isinstance(code, str) and code and isinstance(template, str):
        return code, Message(template, getattr(exc, "params", None) or {})
    return "job_crashed", Message(JOB_CRASHED, {"detail": f"{type(exc).__name__}: {exc}"[:1000]})


def job_progress(job_id: int, fraction: float, message: str = "") -> bool:
    """Report progress (0..1) and refresh the heartbeat. False when the job is not running
    any more (it was cancelled). ``message``: a marked line, a ``Message`` when it has values."""
    return bool(Job.objects.filter(pk=job_id, status=Job.RUNNING).update(
        progress=max(0.0, min(1.0, float(fraction))), heartbeat_at=timezone.now(), **_line(message)))


class _Reporter:
    """The ``report(fraction, message)`` a job's function gets: records progress, and raises
    :class:`JobStopped` once the job's time limit is passed or the job was cancelled."""

    def __init__(self, job: Job, limit: float):
        self.job_id, self.limit = job.pk, limit
        self.deadline = time.monotonic() + limit

    def __call__(self, fraction: float, message: str = "") -> None:
        if time.monotonic() > self.deadline:
            raise JobStopped(Job.TIMED_OUT)
        if not job_progress(self.job_id, fraction, message):
            raise JobStopped(Job.CANCELLED)

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise JobStopped(Job.TIMED_OUT)
        if not Job.objects.filter(pk=self.job_id, status=Job.RUNNING).exists():
            raise JobStopped(Job.CANCELLED)


def reporter(job: Job, limit: float | None = None) -> _Reporter:
    return _Reporter(job, time_limit() if limit is None else limit)


def job_done(job_id: int, message: str = "") -> None:
    Job.objects.filter(pk=job_id, status=Job.RUNNING).update(status=Job.DONE, progress=1.0, finished_at=timezone.now(),
                                                             **_line(message or DONE))


def unknown_kind(kind: str) -> tuple:
    """``(code, line)`` for a job no worker knows how to run."""
    return "unknown_job_kind", Message(UNKNOWN_KIND, {"kind": kind})


def job_failed(job_id: int, code: str, error) -> None:
    """A running job failed: ``code`` stays, ``error`` (a marked line, a ``Message`` when it has
    values: :func:`failure_of`) is worded for whoever looks."""
    Job.objects.filter(pk=job_id, status=Job.RUNNING).update(status=Job.FAILED, message=FAILED, message_params={},
                                                             finished_at=timezone.now(), **_error(code, error))


def job_stopped(job_id: int, status: str) -> None:
    """A running job stopped by its time limit (``timed_out``; a cancelled one is already so)."""
    if status == Job.TIMED_OUT:
        limit = time_limit()
        Job.objects.filter(pk=job_id, status=Job.RUNNING).update(
            status=Job.TIMED_OUT, finished_at=timezone.now(), message=STOPPED, message_params={},
            **_error("job_timed_out", Message(JOB_TIMED_OUT, {"seconds": round(limit)})))


def jobs_heal(*, now=None, requeue_waiting: bool = True) -> int:
    """Running jobs whose heartbeat stopped: queue them again, or fail them after
    ``MAX_ATTEMPTS``. Returns how many were healed. With ``requeue_waiting`` (the caller saw
    the long queue empty: its entries were lost, a Redis restarted empty) jobs queued long
    ago are queued again too; never while the queue holds entries, which would pile up
    duplicates of jobs waiting their turn."""
    at = now or timezone.now()
    healed = 0
    for job_id in Job.objects.filter(status=Job.RUNNING, heartbeat_at__lt=at - STALE_AFTER).values_list("pk", flat=True):
        with transaction.atomic():
            job = Job.objects.select_for_update().get(pk=job_id)
            if job.status != Job.RUNNING or job.heartbeat_at >= at - STALE_AFTER:
                continue
            if job.attempts >= MAX_ATTEMPTS:
                job.status, job.finished_at = Job.FAILED, at
                for field, value in _error("worker_lost", Message(WORKER_LOST, {"attempts": job.attempts})).items():
                    setattr(job, field, value)
                job.message, job.message_params = FAILED, {}
                job.save(update_fields=["status", "finished_at", "error", "error_code", "error_params", "message",
                                        "message_params"])
            else:
                job.status, job.message, job.message_params = Job.QUEUED, RESTARTING, {}
                job.save(update_fields=["status", "message", "message_params"])
                _queue_on_commit(job.pk, _priority(job))
            healed += 1
    if not requeue_waiting:
        return healed
    # Queued jobs whose queue entry was lost (a Redis restart) are queued again too.
    for job_id, by in Job.objects.filter(status=Job.QUEUED, created_at__lt=at - STALE_AFTER * 4,
                                         started_at__isnull=True).values_list("pk", "created_by")[:50]:
        _queue_on_commit(job_id, PRIORITY_OWN if by else PRIORITY_AUTO)
    return healed

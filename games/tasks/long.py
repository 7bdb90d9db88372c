"""The long queue: analysis jobs (and any other work over a second), kept apart from the quick
queue of :mod:`games.tasks` so that no long job can ever occupy a worker thread that house
bots, clocks, chouette deadlines or the periodic tick wait on.

:data:`LONG_HUEY` is a Huey instance of its own (``settings.HUEY_LONG``: its own queue name, in
Redis or in its own SQLite file), consumed by ``manage.py run_long_worker`` with threads of
its own. A job is queued with a priority: a player's own request (``jobs.PRIORITY_OWN``)
goes before the automatic analyses of finished matches (``jobs.PRIORITY_AUTO``), and at most
``GAMES_AUTO_JOBS_AT_ONCE`` automatic ones run at once (an automatic job taken while that many
run is put back for :data:`AUTO_RECHECK` seconds), so with two long threads or more one is
always free for a player's own request.

Every job has a time limit (``GAMES_JOB_TIME_LIMIT``) and may be cancelled: the job's
report of progress (``services.jobs.job_progress``) raises
:class:`~games.services.jobs.JobStopped` once the limit is passed or the job was cancelled,
and the job ends ``timed_out`` or ``cancelled`` (``docs/ANALYSIS.md``).
"""

from __future__ import annotations

import logging
from functools import wraps

from django.conf import settings
from django.db import close_old_connections
from huey.utils import load_class

from games.models import Job
from games.services import analysis, jobs

logger = logging.getLogger("games.worker")


def _build():
    config = dict(settings.HUEY_LONG)
    name = config.pop("name")
    cls = load_class(config.pop("huey_class"))
    config.pop("consumer", None)
    config.update(config.pop("connection", {}))
    return cls(name, **config)


#: The long queue's Huey.
LONG_HUEY = _build()


def _db_task(*args, **kwargs):
    """Like djhuey's ``db_task``, on the long queue: database connections closed around the task."""
    def decorator(fn):
        @wraps(fn)
        def inner(*a, **k):
            if not LONG_HUEY.immediate:
                close_old_connections()
            try:
                return fn(*a, **k)
            finally:
                if not LONG_HUEY.immediate:
                    close_old_connections()
        task = LONG_HUEY.task(*args, **kwargs)(inner)
        task.call_local = fn
        return task
    return decorator


#: kind -> fn(job, report) where report(fraction, message) records progress (and raises
#: ``jobs.JobStopped`` when the job must stop).
JOB_KINDS: dict = {}


#: Seconds before an automatic job that must wait its turn (``GAMES_AUTO_JOBS_AT_ONCE``) looks again.
AUTO_RECHECK = 3.0


@_db_task(priority=jobs.PRIORITY_AUTO)
def run_job(job_id: int) -> str | None:
    if jobs.job_must_wait(job_id):
        run_job.schedule(args=(job_id,), delay=AUTO_RECHECK, priority=jobs.PRIORITY_AUTO)
        return "waiting"
    job = jobs.job_begin(job_id)
    if job is None:
        return None
    fn = JOB_KINDS.get(job.kind)
    logger.info("job %s (%s %s) started, attempt %s", job.pk, job.kind, job.key, job.attempts)
    if fn is None:
        jobs.job_failed(job.pk, *jobs.unknown_kind(job.kind))
        return Job.FAILED
    report = jobs.reporter(job)
    try:
        message = fn(job, report)
        report.check()  # a job that finished past its limit or after a cancel still ends so
    except jobs.JobStopped as stop:
        logger.info("job %s stopped: %s", job.pk, stop.status)
        jobs.job_stopped(job.pk, stop.status)
        return stop.status
    except Exception as exc:
        logger.exception("job %s failed", job.pk)
        jobs.job_failed(job.pk, *jobs.failure_of(exc))
        return Job.FAILED
    jobs.job_done(job.pk, message or "Done")
    logger.info("job %s done", job.pk)
    return Job.DONE


def enqueue(job_id: int, priority: int) -> None:
    run_job(job_id, priority=priority)


def heal_jobs() -> int:
    """The periodic ``jobs`` work (run by the quick workers' tick): heal jobs whose worker died,
    and queue again the waiting ones only when the long queue is empty (entries lost)."""
    try:
        empty = LONG_HUEY.pending_count() + LONG_HUEY.scheduled_count() == 0
    except Exception as exc:  # the queue is away: nothing is queued again this round
        logger.warning("long queue unreachable: %s: %s", type(exc).__name__, exc)
        empty = False
    return jobs.jobs_heal(requeue_waiting=empty)


jobs.set_enqueue(enqueue)
JOB_KINDS[analysis.KIND] = analysis.analysis_run

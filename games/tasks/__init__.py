"""Background work: thin tasks that call services, like any other adapter. This module is the
quick queue (Huey's ``HUEY``, workers: ``manage.py run_huey``): work players wait on in
seconds.

* **House-bot turns** (:func:`bot_turn`), queued after the commit that leaves a house bot
  to act (an events listener, :func:`on_batch`). A task is retried when it fails; one lost
  with its worker (SIGKILL) is found by the periodic ``bots`` job and queued again.
* **Clock deadlines** (:func:`clock_deadline`), scheduled for the moment a running clock
  runs out; the periodic ``clocks`` job catches any schedule that was lost.
* **Long jobs** (analyses): not here. They run on the long queue (:mod:`games.tasks.long`,
  ``manage.py run_long_worker``), whose threads are not these: a long job can never hold up
  a bot's turn, a clock or the tick.
* **Periodic work** (:data:`PERIODIC`): each job has an interval; exactly one worker runs
  it per interval, whatever the number of workers, because a run first claims its period
  (a unique ``PeriodicRun`` row). A chain of :func:`tick` tasks drives them every
  5 seconds (Huey's own periodic tasks fire once a minute at best); a minute task,
  :func:`keep_ticking`, restarts the chain if a worker died holding it.

Nothing here runs in a web process: the web processes only queue tasks.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Callable

from django.db import IntegrityError, transaction
from django.utils import timezone
from huey import crontab
from huey.contrib.djhuey import HUEY, db_periodic_task, db_task

from games import services
from games.events import Batch, BotTurn, ChouetteWork, Deadline
from games.models import PeriodicRun
from games import conf

logger = logging.getLogger("games.worker")

def scale() -> float:
    return float(conf.value("GAMES_PERIODIC_SCALE")) or 1.0


def tick_seconds() -> float:
    """Seconds between two rounds of periodic work (5, times GAMES_PERIODIC_SCALE)."""
    return 5 * scale()


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.current_thread().name}"[:100]


# -- house bots and clocks ------------------------------------------------------------------------


@db_task(priority=100, retries=2, retry_delay=1)
def bot_turn(game_id: int, version: int) -> str | None:
    from games.tasks.bot_turns import play_turn

    started = time.monotonic()
    action = play_turn(game_id, version)
    if action is not None:
        logger.info("bot turn: game %s v%s %s in %.0f ms", game_id, version, action,
                    (time.monotonic() - started) * 1000)
    return action


@db_task(priority=90, retries=2, retry_delay=1)
def clock_deadline(game_id: int, version: int) -> int:
    done = services.expire_clock(game_id=game_id)
    if done:
        logger.info("clock ran out: game %s", game_id)
    return done


@db_task(priority=100, retries=2, retry_delay=1)
def chouette_bot_turn(chouette_id: int, version: int) -> str | None:
    from games.tasks.chouette_turns import play_chouette_turn

    return play_chouette_turn(chouette_id, version)


@db_task(priority=90, retries=2, retry_delay=1)
def chouette_deadline(chouette_id: int, version: int) -> int:
    return services.chouette_timeout(chouette_id=chouette_id, version=version)


def _delay(at) -> float:
    return max(0.0, (at - timezone.now()).total_seconds()) + 0.05


def on_batch(batch: Batch) -> None:
    """Events listener (after the commit): queue what the batch leaves to the workers. If the
    queue is unreachable (Redis restarting) nothing is lost: the periodic work finds bot turns
    left waiting and clocks that ran out."""
    try:
        for work in batch.work:
            if isinstance(work, BotTurn):
                bot_turn(work.game, work.version)
            elif isinstance(work, Deadline):
                clock_deadline.schedule(args=(work.game, work.version), delay=_delay(work.at))
            elif isinstance(work, ChouetteWork):
                if work.bots:
                    chouette_bot_turn(work.chouette, work.version)
                if work.deadline is not None:
                    chouette_deadline.schedule(args=(work.chouette, work.version), delay=_delay(work.deadline))
    except Exception as exc:
        if not queue_unreachable(exc):
            raise
        logger.warning("could not queue work for %s (%s: %s): the periodic work will pick it up",
                       batch.group, type(exc).__name__, exc)


def queue_unreachable(exc: Exception) -> bool:
    """Whether ``exc`` says the task queue (Redis, or the SQLite file) cannot be reached now."""
    return isinstance(exc, OSError) or type(exc).__module__.split(".")[0] in ("redis", "sqlite3", "huey")


# -- long jobs: on the long queue (games/tasks/long.py), never on these workers ---------------------

from games.tasks import long  # noqa: E402,F401 - registers the long queue and how jobs are queued

# -- periodic work ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Periodic:
    name: str
    every: int  # seconds
    run: Callable[[], object]


def _resume_bots() -> int:
    waiting = services.bots_waiting(idle=timedelta(seconds=5 * scale()))
    for game_id, version, _level in waiting:
        bot_turn(game_id, version)
    return len(waiting)


def _resume_chouette_bots() -> int:
    waiting = services.chouettes_bots_waiting(idle=timedelta(seconds=5 * scale()))
    for chouette_id, version in waiting:
        chouette_bot_turn(chouette_id, version)
    return len(waiting)


def _tournaments() -> int:
    """Recurring tournaments open their next occurrence; tournaments whose start time has
    come are started; arenas pair and close."""
    return services.series_schedule() + services.tournament_start_due() + services.tournament_tick()


def _prune() -> int:
    return PeriodicRun.objects.filter(ran_at__lt=timezone.now() - timedelta(days=1)).delete()[0]


PERIODIC = [
    Periodic("clocks", 10, services.expire_clocks),
    Periodic("bots", 5, _resume_bots),
    Periodic("chouette_bots", 5, _resume_chouette_bots),
    Periodic("chouette_deadlines", 5, services.chouette_expire_deadlines),
    Periodic("chouette_absent", 15, services.chouette_drop_absent_movers),
    Periodic("presence", 15, services.sweep_presence),
    Periodic("jobs", 10, long.heal_jobs),
    Periodic("abandoned", 60, services.close_abandoned),
    Periodic("notices", 60, services.notices_send),
    Periodic("digest", 600, services.digests_send),
    Periodic("queue", 60, services.queue_expire),
    Periodic("tournaments", 10, _tournaments),
    Periodic("tournament_deadlines", 30, services.tournament_expire_deadlines),
    Periodic("club_challenges", 30, services.club_expire_challenges),
    Periodic("prune", 3600, _prune),
]


def claim(name: str, period: int) -> bool:
    """Claim ``name``'s run for ``period``: True for exactly one caller, whatever the number of workers."""
    try:
        with transaction.atomic():
            PeriodicRun.objects.create(name=name, period=period, worker=worker_name())
        return True
    except IntegrityError:
        return False


def run_periodic(now: float | None = None) -> dict:
    """Run every periodic job whose period this is and that no other worker ran yet."""
    now = time.time() if now is None else now
    done = {}
    for job in PERIODIC:
        period = int(now // (job.every * scale()))
        if not claim(job.name, period):
            continue
        try:
            result = job.run()
        except Exception:
            logger.exception("periodic %s failed", job.name)
            continue
        done[job.name] = result
        if result:
            logger.info("periodic %s: %s", job.name, result)
        PeriodicRun.objects.filter(name=job.name, period=period).update(result={"result": result})
    return done


@db_task(priority=80)
def tick(period: int) -> None:
    """One round of periodic work, then the next round is scheduled. Two chains (two
    workers started together) meet on the claim of a period: the loser stops."""
    if not claim("tick", period):
        return
    try:
        run_periodic()
    finally:
        tick.schedule(args=(period + 1,), delay=max(0.0, (period + 1) * tick_seconds() - time.time()))


def start_ticking() -> None:
    """Start the chain at the next period (claims make a duplicate harmless)."""
    period = int(time.time() // tick_seconds()) + 1
    tick.schedule(args=(period,), delay=max(0.0, period * tick_seconds() - time.time()))


@db_periodic_task(crontab(minute="*"))
def keep_ticking() -> None:
    """Once a minute: restart the tick chain if no tick ran lately (a worker died with it)."""
    last = PeriodicRun.objects.filter(name="tick").order_by("-period").values_list("period", flat=True).first()
    if last is None or last < int(time.time() // tick_seconds()) - 3:
        logger.info("periodic work: starting the tick chain")
        start_ticking()


_watchdog = {"started": False, "lock": threading.Lock()}


@HUEY.on_startup()
def _on_startup() -> None:
    """Each worker process starts the tick chain, and watches that it keeps ticking."""
    if HUEY.immediate:
        return
    start_ticking()
    with _watchdog["lock"]:
        if _watchdog["started"]:
            return
        _watchdog["started"] = True
    threading.Thread(target=_watch_ticks, name="tick-watchdog", daemon=True).start()


def _watch_ticks() -> None:
    """Restart the tick chain when no tick ran for three rounds: its scheduled task was lost
    (a queue in Redis restarted empty, a worker killed while holding it). Huey's own periodic
    task (keep_ticking) does the same once a minute; this is quicker."""
    from django.db import close_old_connections

    while True:
        time.sleep(tick_seconds() * 2)
        try:
            last = PeriodicRun.objects.filter(name="tick").order_by("-period").values_list("period", flat=True).first()
            if last is None or last < int(time.time() // tick_seconds()) - 3:
                logger.info("periodic work: the tick chain stopped; starting it again")
                start_ticking()
        except Exception as exc:  # the database or the queue is away: try again next round
            logger.warning("tick watchdog: %s: %s", type(exc).__name__, exc)
        finally:
            close_old_connections()

"""``python manage.py worker_status``: the two task queues' lengths, scheduled tasks, running and
failed jobs, and when each periodic job last ran (and by which worker)."""

from django.core.management.base import BaseCommand
from django.db.models import Max

from games.models import Job, PeriodicRun
from games.selectors.jobs import job_error


class Command(BaseCommand):
    help = "Show the workers' queue, jobs and periodic work."

    def handle(self, *args, **options):
        from huey.contrib.djhuey import HUEY

        from games.tasks.long import LONG_HUEY

        for what, huey in (("quick", HUEY), ("long", LONG_HUEY)):
            self.stdout.write(f"{what} queue {huey.name} ({type(huey).__name__}): {huey.pending_count()} pending, "
                              f"{huey.scheduled_count()} scheduled")
        running = Job.objects.filter(status=Job.RUNNING)
        self.stdout.write(f"jobs running: {running.count()}")
        for job in running[:20]:
            self.stdout.write(f"  #{job.pk} {job.kind} {job.key}: {job.progress:.0%} {job.message} "
                              f"(attempt {job.attempts}, heartbeat {job.heartbeat_at:%H:%M:%S})")
        failed = Job.objects.filter(status=Job.FAILED).order_by("-finished_at")
        self.stdout.write(f"jobs failed: {failed.count()}")
        for job in failed[:10]:
            self.stdout.write(f"  #{job.pk} {job.kind} {job.key}: {job.error_code} {job_error(job)[:120]}")
        self.stdout.write("periodic work (last run):")
        for row in PeriodicRun.objects.values("name").annotate(last=Max("ran_at")).order_by("name"):
            last = PeriodicRun.objects.filter(name=row["name"], ran_at=row["last"]).first()
            self.stdout.write(f"  {row['name']:<10} {row['last']:%Y-%m-%d %H:%M:%S} by {last.worker if last else '?'}")

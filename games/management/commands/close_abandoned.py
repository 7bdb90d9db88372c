"""``python manage.py close_abandoned``: forfeit matches whose clock ran out and close
matches a player left (the same sweep every server process runs each second)."""

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Forfeit matches lost on time and close abandoned matches."

    def handle(self, *args, **options):
        done = services.sweep()
        self.stdout.write(f"timeouts: {done['timeouts']}, abandoned: {done['abandoned']}")

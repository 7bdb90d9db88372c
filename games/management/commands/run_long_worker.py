"""``python manage.py run_long_worker``: the consumer of the long queue (analysis jobs), with
threads of its own (``settings.HUEY_LONG``; ``GAMES_LONG_WORKER_THREADS``, default 2).

It is Huey's ``run_huey`` for the second instance, :data:`games.tasks.long.LONG_HUEY`: the
quick queue's workers (``manage.py run_huey``: house bots, clocks, the periodic tick) never
take a long job, and these never take quick work. It takes the same options as ``run_huey``
(``--workers``, ``--logfile``, ...). docs/DEPLOY.md, "Two kinds of work".
"""

import logging

from django.conf import settings
from django.core.management.base import BaseCommand
from huey.consumer_options import ConsumerConfig, OptionParserHandler


class Command(BaseCommand):
    help = "Run the consumer of the long queue (analysis jobs)."
    _type_map = {"int": int, "float": float}

    def add_arguments(self, parser):
        handler = OptionParserHandler()
        for group in (handler.get_logging_options(), handler.get_worker_options(), handler.get_scheduler_options()):
            for short, full, kwargs in group:
                if short == "-v":
                    full, short = "--huey-verbose", "-V"
                if "type" in kwargs:
                    kwargs["type"] = self._type_map[kwargs["type"]]
                kwargs.setdefault("default", None)
                parser.add_argument(full, short, **kwargs)

    def handle(self, *args, **options):
        import games.tasks  # noqa: F401 - every task registered, as run_huey's autoload does
        from games.tasks.long import LONG_HUEY

        consumer_options = dict(settings.HUEY_LONG.get("consumer", {}))
        consumer_options.update({k: v for k, v in options.items()
                                 if v is not None and k in ConsumerConfig._fields})
        config = ConsumerConfig(**consumer_options)
        config.validate()
        logger = logging.getLogger("huey")
        if not logger.handlers:
            config.setup_logger(logger)
        LONG_HUEY.create_consumer(**config.values).run()

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from . import signals
        from .events import add_listener
        from .realtime import broadcast

        signals.connect()
        add_listener(broadcast)  # committed events go to the channel layer

        from .bots.runner import on_event as house_bots

        add_listener(house_bots)  # house bots play when a committed event leaves them to act

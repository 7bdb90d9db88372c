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

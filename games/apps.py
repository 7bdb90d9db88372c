from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from django.utils.translation import gettext

        from games import signals, tasks
        from games.engine import errors as engine_errors
        from games.events import add_listener
        from games.realtime.bridge import broadcast
        from games.services.lifecycle import add_match_end_hook
        from games.services import club_ladder
        from games.services.tournament_play import on_match_end
        from games.services.analysis import add_analysis_done_hook
        from games.services.tournament_records import on_analysis_done

        signals.connect()
        engine_errors.translate = gettext  # the engine's refusals are read in the reader's language
        add_listener(broadcast)  # committed batches go to the channel layer
        add_listener(tasks.on_batch)  # and what they leave to the workers goes to the task queue
        add_match_end_hook(on_match_end)  # a tournament match's end files its result
        add_match_end_hook(club_ladder.on_match_end)  # and a ladder challenge's moves the places
        add_analysis_done_hook(on_analysis_done)  # a tournament match's PR shows on the tournament's page

"""Fixtures for the site part of analysis: a finished match played through the services."""

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.services.conftest import Table, make_table, players  # noqa: F401 - fixtures re-used


@pytest.fixture
def auto_analysis(settings):
    """The automatic analysis on, at 0-ply (fast), run inline at commit (HUEY immediate)."""
    settings.GAMES_ANALYSIS_AUTO = True
    settings.GAMES_ANALYSIS_DEPTH = 0
    return settings


def finish_match(table: Table, capture) -> Game:
    """Race every game of ``table``'s match to its end; the last commit's callbacks run
    (the analysis job, inline)."""
    for _ in range(30):
        match = table.match
        if match.status == "finished":
            return table.game
        with capture(execute=True):
            table.play_to_end()
    raise AssertionError("the match did not end")


@pytest.fixture
def finished(make_table, auto_analysis, django_capture_on_commit_callbacks):  # noqa: F811
    """A finished 1-point match between alice (White) and bob (Black), analysed at 0-ply."""
    table = make_table(length=1, opening=(3, 1))
    finish_match(table, django_capture_on_commit_callbacks)
    return table


def login(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


@pytest.fixture
def stranger(db):
    return services.player_register(username="carol", password="correct horse 3")

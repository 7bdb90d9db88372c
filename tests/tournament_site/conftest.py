"""Helpers for the site's tournaments: players, and house bots played to the end."""

import pytest

from games import services
from games.models import Game, Match, Tournament, TournamentMatch
from games import tasks


@pytest.fixture
def people(db):
    return [services.player_register(username=name, password=f"correct horse {name}")
            for name in ("ann", "bob", "cy", "dee", "eve", "fay")]


def run_bots(tournament_id, limit=100000):
    """Play every house bot's turn in the tournament's matches through the workers' task
    (``tasks.bot_turn``, called as a worker calls it), until no bot has anything to do;
    returns the number of turns."""
    turns = 0
    while turns < limit:
        games = list(Game.objects.filter(status=Game.PLAYING, match__tournament_link__tournament_id=tournament_id)
                     .values_list("pk", "version"))
        played = 0
        for game_id, version in games:
            if tasks.bot_turn.call_local(game_id, version) is not None:
                played += 1
        if not played:
            return turns
        turns += played
    raise AssertionError("the bots did not finish")


def tournament_matches(tournament_id, **filters):
    return [link.match for link in TournamentMatch.objects.filter(tournament_id=tournament_id, replaced=False,
                                                                  **filters).select_related("match").order_by("pk")]


def tournament(pk) -> Tournament:
    return Tournament.objects.get(pk=pk)


def playing(tournament_id) -> list:
    return [m for m in tournament_matches(tournament_id) if m.status == Match.PLAYING]

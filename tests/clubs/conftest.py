"""Helpers for clubs: players, a club with members in ladder order."""

import pytest

from games import services


@pytest.fixture
def people(db):
    return [services.player_register(username=name, password=f"correct horse {name}")
            for name in ("ann", "bob", "cy", "dee", "eve", "fay")]


def club_of(people, n=6, **settings):
    """A club owned by ``people[0]`` with ``people[:n]`` on its ladder in that order."""
    club = services.club_create(by=people[0], name="Tuesday club", **settings)
    for p in people[1:n]:
        services.club_join(token=club.invite_token, player=p)
    return club


@pytest.fixture
def club(people):
    return club_of(people)

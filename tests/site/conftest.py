"""Players for the site's tests, made through the services."""

import pytest

from games import services


@pytest.fixture
def alice(db):
    return services.player_register(username="alice", password="correct horse 1")


@pytest.fixture
def bob(db):
    return services.player_register(username="bob", password="correct horse 2")

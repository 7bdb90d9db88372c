"""Shared pieces of the security tests: players, a staff user with only view permissions,
and a check that nothing logged a traceback."""

import logging

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from games import services


def make_player(name):
    return services.player_register(username=name, password="pw-" + name + "-long-enough")


@pytest.fixture
def alice(db):
    return make_player("alice")


@pytest.fixture
def bob(db):
    return make_player("bob")


@pytest.fixture
def carol(db):
    return make_player("carol")


def staff_with(*codenames, username="viewer"):
    """A staff user holding exactly these ``games`` permissions (``view_game``...)."""
    user = get_user_model().objects.create_user(username=username, password="pw-staff-long-enough",
                                                is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="games", codename__in=codenames))
    return get_user_model().objects.get(pk=user.pk)  # fresh: no permission cache


@pytest.fixture
def no_tracebacks(caplog):
    """Fails the test if anything logged a traceback (an unhandled error)."""
    caplog.set_level(logging.WARNING)
    yield caplog
    bad = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not bad, [r.getMessage() for r in bad]

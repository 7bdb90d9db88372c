"""Signal handlers: every user gets a player profile.

Users made by ``createsuperuser``, the admin or ``User.objects.create_user``
get their :class:`~games.models.Player` through
:func:`games.services.player_for_user` once the user's transaction commits.
Waiting for the commit lets ``games.services.player_register`` create the
profile itself (with its display name and bot flag) in the same transaction;
``player_for_user`` then finds it and does nothing.
"""

from __future__ import annotations

import logging
from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction

logger = logging.getLogger(__name__)


def _ensure_player(user_pk, using) -> None:
    from games.services import player_for_user

    user = get_user_model()._default_manager.using(using).filter(pk=user_pk).first()
    if user is not None:  # None: the user was deleted before the commit
        player_for_user(user)


def create_player_profile(sender, instance, created, raw=False, using="default", **kwargs) -> None:
    """post_save of the user model: give a new user its player profile."""
    if not created or raw:  # raw: loaddata, which brings its own profiles
        return
    transaction.on_commit(partial(_ensure_player, instance.pk, using), using=using, robust=True)


def connect() -> None:
    from django.db.models.signals import post_save

    post_save.connect(create_player_profile, sender=get_user_model(), dispatch_uid="games.create_player_profile")

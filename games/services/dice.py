"""Where a game's dice come from: one injectable source.

By default each game rolls :class:`games.dice.SeededDice` from its own server
seed and counter (provably fair; see ``games.dice``). ``GAMES_DICE_SOURCE``
may name another factory ``f(game) -> source`` by dotted path, and tests can
swap the factory with :func:`use_dice`.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.utils.module_loading import import_string

from games.dice import SeededDice
from games import conf

_override = None


def seeded_dice(game) -> SeededDice:
    """The fair source: the game's seed, continuing from its counter."""
    return SeededDice(game.dice_seed, game.dice_counter)


def dice_for(game):
    """The dice source for ``game`` (an object with ``roll()``, ``die()`` and ``counter``)."""
    if _override is not None:
        return _override(game)
    path = conf.value("GAMES_DICE_SOURCE")
    return import_string(path)(game)


@contextmanager
def use_dice(source):
    """Within the block every game rolls from ``source`` (e.g. a ScriptedDice)."""
    global _override
    previous = _override
    _override = lambda game: source  # noqa: E731
    try:
        yield source
    finally:
        _override = previous

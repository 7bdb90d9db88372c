"""Check a finished game's dice against its revealed seed (see ``games.dice``).

Every die-throwing event of a game records the counter it used: each
``opening_roll`` event has ``counters`` ``[white's, black's]`` (one die each,
the first face of that counter) and each ``roll`` event a ``counter`` and the
two ``dice``. :func:`verify_game` recomputes them all from the seed revealed
at the end of the game and checks the seed against the commitment published
at its start. The seed of a game in progress is secret, so such a game is
refused.
"""

from __future__ import annotations

from games.dice import roll_die_values, verify_rolls
from games.errors import Conflict
from games.models import Game
from django.utils.translation import gettext


def game_rolls(game: Game) -> list:
    """``[(counter, kind, values, event version), ...]`` for every die thrown in ``game``."""
    rolls = []
    for event in game.events.filter(type__in=("opening_roll", "roll")).order_by("version"):
        data = event.payload
        if event.type == "opening_roll":
            white_counter, black_counter = data["counters"]
            rolls.append((white_counter, "die", [data["white"]], event.version))
            rolls.append((black_counter, "die", [data["black"]], event.version))
        else:
            rolls.append((data["counter"], "roll", list(data["dice"]), event.version))
    return rolls


def verify_game(game: Game) -> dict:
    """``{"ok", "problems", "rolls", "seed", "commitment", "game"}`` for a finished game.

    Raises :class:`games.errors.Conflict` (code ``game_not_finished``) while the
    game is being played. A problem names the event version of the roll that
    does not match, e.g. ``"roll at counter 7 (entry #8) differs: expected (3, 1),
    recorded (6, 6) [event v12]"``.
    """
    if game.status != Game.FINISHED:
        raise Conflict("game_not_finished",
                       gettext("Game %(pk)s is still being played: its dice seed is revealed when it ends.")
                               % {"pk": game.pk})
    rolls = game_rolls(game)
    problems = verify_rolls(game.dice_seed, game.dice_commitment, [(c, k, v) for c, k, v, _ in rolls])
    versions = {f"entry #{i}": version for i, (_c, _k, _v, version) in enumerate(rolls)}
    named = []
    for problem in problems:
        for entry, version in versions.items():
            if f"{entry})" in problem or f"{entry}:" in problem or f"{entry} (" in problem:
                problem = f"{problem} [event v{version}]"
                break
        named.append(problem)
    return {
        "game": game.pk,
        "ok": not problems,
        "problems": named,
        "rolls": len(rolls),
        "seed": game.dice_seed,
        "commitment": game.dice_commitment,
    }


def recomputed_rolls(game: Game) -> list:
    """Every die of a finished game with its value recomputed from the revealed seed:
    ``[{"counter", "kind", "recorded", "recomputed", "ok", "version"}]`` (the page shows it)."""
    if game.status != Game.FINISHED:
        raise Conflict("game_not_finished",
                       gettext("Game %(pk)s is still being played: its dice seed is revealed when it ends.")
                               % {"pk": game.pk})
    out = []
    for counter, kind, values, version in game_rolls(game):
        try:
            again = list(roll_die_values(game.dice_seed, counter, len(values)))
        except (TypeError, ValueError):
            again = []
        out.append({"counter": counter, "kind": kind, "recorded": values, "recomputed": again,
                    "ok": again == list(values), "version": version})
    return out


__all__ = ["verify_game", "game_rolls", "recomputed_rolls"]

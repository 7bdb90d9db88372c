"""Scripted dice for the browser tests, chosen by the live server through the environment.

The server is started with ``GAMES_DICE_SOURCE=tests.browser.dice.scripted_dice`` and
``GAMES_DICE_SCRIPT=<path of a JSON file>``. The file maps match ids to game numbers to
rolls, in counter order (one entry per die of the opening roll, two per roll)::

    {"matches": {"3": {"1": [[3], [1], [6, 6], [5, 2]]}}}

The test writes the script for a match before the second player joins (the opening roll
happens then). A game without a script, or past its end, rolls the fair seeded dice.
The file is read on every roll, so tests can add scripts while the server runs.
"""

from __future__ import annotations

import json
import os
import random
from contextlib import contextmanager
from pathlib import Path

from games.dice import SeededDice

ENV = "GAMES_DICE_SCRIPT"


class _ScriptThenSeeded:
    """Rolls ``script[counter]`` while the script lasts, then the game's seeded dice."""

    def __init__(self, script, seed, counter):
        self.script, self.seed, self.counter = script, seed, counter

    def _next(self, size):
        if self.counter < len(self.script):
            values = tuple(self.script[self.counter])
            if len(values) != size:
                raise RuntimeError(f"dice script entry {self.counter} is {values}, need {size} dice")
            self.counter += 1
            return values
        source = SeededDice(self.seed, self.counter)
        values = source.roll() if size == 2 else (source.die(),)
        self.counter = source.counter
        return values

    def roll(self):
        return self._next(2)

    def die(self):
        return self._next(1)[0]


def load(path=None) -> dict:
    path = path or os.environ.get(ENV)
    if not path or not Path(path).is_file():
        return {}
    return json.loads(Path(path).read_text() or "{}")


def scripted_dice(game):
    """The factory named by GAMES_DICE_SOURCE: ``f(game) -> object with roll(), die(), counter``.
    Chouettes: ``{"chouettes": {id: {"seating": [...], "1": [...]}}}`` (the seating's dice are
    rolled with the chouette itself as the "game")."""
    if hasattr(game, "match_id"):
        script = load().get("matches", {}).get(str(game.match_id), {}).get(str(game.number), [])
    elif hasattr(game, "chouette_id"):
        script = load().get("chouettes", {}).get(str(game.chouette_id), {}).get(str(game.number), [])
    else:
        script = load().get("chouettes", {}).get(str(game.pk), {}).get("seating", [])
    return _ScriptThenSeeded(script, game.dice_seed, game.dice_counter)


def set_chouette_script(path, chouette_id, key, rolls) -> None:
    """Add the dice of a chouette's seating (``key="seating"``) or of its game ``key``."""
    data = load(path)
    data.setdefault("chouettes", {}).setdefault(str(chouette_id), {})[str(key)] = [list(r) for r in rolls]
    Path(path).write_text(json.dumps(data))


def set_script(path, match_id, game_number, rolls) -> None:
    """Add (or replace) the script of one game of one match in the file at ``path``."""
    data = load(path)
    data.setdefault("matches", {}).setdefault(str(match_id), {})[str(game_number)] = [list(r) for r in rolls]
    Path(path).write_text(json.dumps(data))


# -- finding a short game with a hit, an entry from the bar and a bear-off -----------------------


def simulate(rolls, *, policy=lambda plays: plays[0]):
    """Play a 1-point game with ``rolls`` (opening dice first) and ``policy``; return what happened."""
    from games.engine import MOVE, OVER, GameState, MatchRules, MatchState

    state = GameState.new(MatchState.new(MatchRules(length=1)).game_rules())
    it = iter(rolls)
    state = state.opening_roll(next(it)[0], next(it)[0])
    stats = {"hits": 0, "entries": 0, "bearoffs": 0, "turns": 0, "steps": 0, "over": False}
    while state.phase != OVER:
        if state.phase != MOVE:
            state = state.roll(state.position.turn, tuple(next(it)))
            continue
        color = state.actor
        play = policy(state.legal_plays())
        before = state.position.bar("black" if color == "white" else "white")
        state = state.move(color, [s.to_dict() for s in play.steps])
        stats["hits"] += max(0, state.position.bar("black" if color == "white" else "white") - before)
        stats["entries"] += sum(1 for s in play.steps if s.to_dict()["from"] == "bar")
        stats["bearoffs"] += sum(1 for s in play.steps if s.to_dict()["to"] == "off")
        stats["steps"] += len(play.steps)
        stats["turns"] += 1
    stats["over"] = True
    stats["winner"] = state.result.winner
    return stats


def short_game_script(seed=7, tries=4000, max_turns=24):
    """A deterministic dice script for a short 1-point game, played by always choosing the
    first listed legal play, in which a checker is hit, enters from the bar, and the game
    ends by bearing off."""
    rng = random.Random(seed)
    faces = [6, 6, 6, 5, 5, 4, 4, 3, 2, 1]  # big dice: a short race
    best = None
    for _ in range(tries):
        white, black = rng.randint(2, 6), 1
        rolls = [[white], [black]] + [[rng.choice(faces), rng.choice(faces)] for _ in range(60)]
        try:
            stats = simulate(rolls)
        except StopIteration:
            continue
        if stats["hits"] and stats["entries"] and stats["bearoffs"] and stats["turns"] <= max_turns:
            if best is None or stats["steps"] < best[1]["steps"]:
                best = (rolls, stats)
    if best is None:
        raise RuntimeError("no short game found; widen the search")
    return best


@contextmanager
def scripted_site(tmp_path: Path, *, workers: int = 0, **env):
    """A live site (``tests.live.Site``, one web process, ``workers`` worker processes) whose
    dice follow the script file it yields with it: ``(site, script_path)``; ``env`` adds to
    its environment (``GAMES_NEXT_GAME_DELAY="300"``: a game's end stays on screen)."""
    from tests.live import Site
    from tests.support import require_chromium

    require_chromium()
    script = tmp_path / "dice.json"
    script.write_text("{}")
    env = {"GAMES_DICE_SOURCE": "tests.browser.dice.scripted_dice", ENV: str(script), "GAMES_SWEEP_INTERVAL": "0",
           **env}
    with Site(tmp_path / "site", webs=1, workers=workers, env=env) as site:
        yield site, script

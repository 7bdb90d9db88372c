"""Bot levels: what each one evaluates with, and how much noise it adds.

Every decision is deterministic: the noise is drawn from ``random.Random``
seeded by a hash of the position key, the dice and the level name.
"""

from __future__ import annotations

from dataclasses import dataclass

RANDOM = "random"
PUBEVAL = "pubeval"
SAGE = "sage"


@dataclass(frozen=True)
class Level:
    """One named strength.

    ``engine``: ``random`` (uniform legal play), ``pubeval`` or ``sage`` (bgsage).
    ``ply``: bgsage search depth, GNU Backgammon numbering (0 = raw network).
    ``noise``: standard deviation of Gaussian noise added to each play's equity
    (sage) -- or to each pubeval score for the pubeval engine.
    ``fallback_noise``: the pubeval-score noise used instead when bgsage is missing.
    ``cube_ply`` / ``cube_noise``: the same for cube and resignation decisions
    (noise in equity units, added to the margins the decision compares). bgsage's cube
    action is cubeful at the match score and searches at least 1 ply
    (``games.analysis.sage.CUBE_MIN_PLY``: 0-ply would be Janowski's formula, blind to a
    dead cube and the taker's recube).
    """

    name: str
    rank: int
    description: str
    engine: str
    ply: int = 0
    noise: float = 0.0
    fallback_noise: float = 0.0
    cube_ply: int = 0
    cube_noise: float = 0.0

    def to_dict(self) -> dict:
        return {"name": self.name, "rank": self.rank, "description": self.description}


LEVELS = [
    Level("random", 0, "Plays a uniformly random legal move.", RANDOM,
          cube_noise=0.30),
    Level("beginner", 1, "Tesauro's pubeval with heavy noise: many blunders.", PUBEVAL,
          noise=1.5, fallback_noise=1.5, cube_noise=0.20),
    Level("casual", 2, "Neural net (bgsage 0-ply) with large noise: frequent errors.", SAGE,
          ply=0, noise=0.13, fallback_noise=0.8, cube_noise=0.12),
    Level("intermediate", 3, "Neural net (bgsage 0-ply) with moderate noise.", SAGE,
          ply=0, noise=0.07, fallback_noise=0.4, cube_noise=0.06),
    Level("advanced", 4, "Neural net (bgsage 0-ply) with slight noise.", SAGE,
          ply=0, noise=0.03, fallback_noise=0.15, cube_noise=0.02),
    Level("expert", 5, "Neural net (bgsage) 1-ply lookahead, no noise.", SAGE,
          ply=1, cube_ply=1),
    Level("world_class", 6, "Neural net (bgsage) 2-ply lookahead, no noise.", SAGE,
          ply=2, cube_ply=2),
]
LEVELS_BY_NAME = {level.name: level for level in LEVELS}
DEFAULT_LEVEL = "intermediate"


def get_level(name) -> Level:
    if isinstance(name, Level):
        return name
    try:
        return LEVELS_BY_NAME[name]
    except KeyError:
        raise ValueError(f"Unknown bot level {name!r}: use one of {', '.join(LEVELS_BY_NAME)}") from None


# -- how the site shows the levels (the one module outside bots/ may import) ----------------


def level_names() -> list:
    """The house-bot levels' names, weakest first."""
    return [level.name for level in LEVELS]


def gettext_noop(text: str) -> str:
    """Marks a text for the translation catalogues (the pages translate it); this module stays pure."""
    return text


# What a player reads about each level in the lobby: roughly how strong, how fast.
LEVEL_BLURBS = {
    "random": gettext_noop("Moves at random: for learning the controls. Instant."),
    "beginner": gettext_noop("Knows the basics but blunders often. Instant."),
    "casual": gettext_noop("A club newcomer: sound ideas, frequent errors. Under a second a move."),
    "intermediate": gettext_noop("A decent club player with the odd mistake. Under a second a move."),
    "advanced": gettext_noop("A strong club player: rare, small errors. Under a second a move."),
    "expert": gettext_noop("Plays like a top human (1-ply neural net). About a second a move."),
    "world_class": gettext_noop("Near the best programs (2-ply neural net). Several seconds a move."),
}
LEVEL_LABELS = {
    "random": gettext_noop("Random"), "beginner": gettext_noop("Beginner"), "casual": gettext_noop("Casual"),
    "intermediate": gettext_noop("Intermediate"), "advanced": gettext_noop("Advanced"),
    "expert": gettext_noop("Expert"), "world_class": gettext_noop("World class"),
}


def level_choices() -> list:
    """The levels as the lobby offers them: ``[{"name", "label", "about", "default"}]``."""
    return [{"name": level.name, "label": LEVEL_LABELS.get(level.name, level.name.replace("_", " ").capitalize()),
             "about": LEVEL_BLURBS.get(level.name, level.description), "default": level.name == DEFAULT_LEVEL}
            for level in LEVELS]


def house_bot_name(level: str) -> str:
    """The display name of the house bot at ``level`` (parentheses: agents cannot use them)."""
    return f"{level.replace('_', ' ').capitalize()} (house bot)"[:40]

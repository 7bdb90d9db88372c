"""The options of a chouette session and the vocabulary shared by its modules.

Defaults follow seed 003's "Rules for Chouettes": the Jacoby rule, beavers but
no raccoons (rule 1), consultation only once a member's cube is turned (rule 2),
the captain may buy a dropped cube (rule 3), the last member left must drop or
buy all the other cubes (rule 4), settlements (rule 5). Each is an option.

>>> ChouetteRules().to_dict()["fullConsultation"]
False
>>> ChouetteRules().cube_limit, ChouetteRules.from_dict(ChouetteRules(cube_limit=None).to_dict()).cube_limit
(64, None)
>>> ChouetteRules(raccoon=True, beaver=False)
Traceback (most recent call last):
...
games.engine.errors.IllegalAction: Raccoons need beavers to be allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..errors import IllegalAction
from ..position import BLACK, WHITE
from ..wire import camel, from_wire, to_wire
from games.engine.errors import gettext_noop

# -- sides and colours -----------------------------------------------------------
BOX = "box"
TEAM = "team"
SIDES = (BOX, TEAM)
BOX_COLOR = WHITE  # the box always plays White, the team Black
TEAM_COLOR = BLACK
COLOR_OF = {BOX: BOX_COLOR, TEAM: TEAM_COLOR}
SIDE_OF = {BOX_COLOR: BOX, TEAM_COLOR: TEAM}


def other_side(side: str) -> str:
    return TEAM if side == BOX else BOX


# -- phases of one game ----------------------------------------------------------
OPENING = "opening"  # the box and the captain roll one die each (the server rolls)
CUBE_WINDOW = "cube_window"  # the side on roll decides on its cubes, one player at a time
ANSWERS = "answers"  # doubles (and beavers, when raccoons are on) are being answered
BUY = "buy"  # rule 3: the captain decides whether to buy the cubes just dropped
LAST_MEMBER = "last_member"  # rule 4: the last member left must drop or buy all
ROLL = "roll"  # no decision left: the side on roll's roller rolls (the server may roll at once)
MOVE = "move"  # the roller plays the dice
OVER = "over"
PHASES = (OPENING, CUBE_WINDOW, ANSWERS, BUY, LAST_MEMBER, ROLL, MOVE, OVER)
ROUND_PHASES = (ANSWERS, BUY, LAST_MEMBER)  # the captain does not change inside these

# -- why someone appears in pending() --------------------------------------------
R_OPENING_ROLL = "opening_roll"
R_DOUBLE_DECISION = "double_decision"
R_DOUBLE_ANSWER = "double_answer"
R_RACCOON_DECISION = "raccoon_decision"
R_BUY_DECISION = "buy_decision"
R_LAST_MEMBER = "last_member"
R_ROLL = "roll"
R_MOVE = "move"
REASONS = (
    R_OPENING_ROLL, R_DOUBLE_DECISION, R_DOUBLE_ANSWER, R_RACCOON_DECISION,
    R_BUY_DECISION, R_LAST_MEMBER, R_ROLL, R_MOVE,
)
CUBE_DECISIONS = (R_DOUBLE_DECISION, R_DOUBLE_ANSWER, R_RACCOON_DECISION, R_BUY_DECISION, R_LAST_MEMBER)

# -- a cube's pending stage, how it ended, how it was bought ---------------------
OFFERED = "offered"  # doubled, waiting for the other party's answer
BEAVERED = "beavered"  # beavered, waiting for the doubler's raccoon decision
DROPPED = "dropped"  # a member dropped the box's double: waiting for rule 3 / rule 4
OPEN_STAGES = (OFFERED, BEAVERED)  # an answer is still awaited

END_BEAROFF = "bearoff"
END_DROP = "drop"
END_SETTLEMENT = "settlement"
END_FORFEIT = "forfeit"

BOUGHT_BY_CAPTAIN = "captain"  # rule 3
BOUGHT_BY_LAST_MEMBER = "last_member"  # rule 4

# -- how a whole game ended --------------------------------------------------------
ENDING_BEAROFF = "bearoff"  # the board was played out
ENDING_CUBES = "cubes"  # every cube was decided off the board (drops, settlements)
ENDING_FORFEIT = "forfeit"  # the box, or the last team member present, left


@dataclass(frozen=True)
class ChouetteRules:
    """Options chosen when a chouette session is created (``docs/CHOUETTE.md``)."""

    jacoby: bool = True
    beaver: bool = True
    raccoon: bool = False
    full_consultation: bool = False  # rule 2 off: every member in the game may consult
    cube_limit: int | None = 64  # as a match's (MatchRules): a power of two, at least 2; None: no limit
    min_players: int = 3
    max_players: int = 8
    captain_buys: bool = True  # rule 3
    last_member_buys: bool = True  # rule 4
    settlements: bool = True  # rule 5

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("cube_limit", "min_players", "max_players"):
                continue
            if type(value) is not bool:
                raise IllegalAction("bad_rules", gettext_noop("%(camel)s must be true or false."),
                        params={"camel": camel(f.name)})
        limit = self.cube_limit
        if limit is not None and (type(limit) is not int or limit < 2 or limit & (limit - 1)):
            raise IllegalAction("bad_cube_limit", gettext_noop("The cube limit must be a power of two, at least 2, or none."))
        lo, hi = self.min_players, self.max_players
        if type(lo) is not int or type(hi) is not int or not 3 <= lo <= hi <= 8:
            raise IllegalAction("bad_player_limits", gettext_noop("A chouette seats 3 to 8 players (min <= max)."))
        if self.raccoon and not self.beaver:
            raise IllegalAction("raccoon_needs_beaver", gettext_noop("Raccoons need beavers to be allowed."))

    def starters(self, seated: list, creator) -> list:
        """Who may start a table that has not started, of the players ``seated`` there: its
        creator if he sits, else (he left) anyone seated. ``chouette_start`` refuses the others
        and the table's state names them (``starters``) for the page's Start button.

        >>> ChouetteRules().starters([5, 1, 7], creator=1), ChouetteRules().starters([5, 7], creator=1)
        ([1], [5, 7])
        """
        return [creator] if creator in seated else list(seated)

    def may_start_with(self, seated: list) -> bool:
        """Whether enough players sit to start (``min_players``)."""
        return len(seated) >= self.min_players

    def limit_allows(self, value: int) -> bool:
        """Whether a cube may reach ``value``."""
        return self.cube_limit is None or value <= self.cube_limit

    def to_dict(self) -> dict:
        return to_wire(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ChouetteRules":
        return from_wire(cls, data)


def phase_message(phase: str) -> str:
    return {
        OPENING: gettext_noop("The game has not started: the opening roll comes first."),
        CUBE_WINDOW: gettext_noop("The cube decisions come first."),
        ANSWERS: gettext_noop("Doubles are being answered."),
        BUY: gettext_noop("The captain is deciding whether to buy the dropped cubes."),
        LAST_MEMBER: gettext_noop("The last member must drop or buy the other cubes first."),
        ROLL: gettext_noop("The dice have not been rolled yet."),
        MOVE: gettext_noop("The dice are rolled: they must be played first."),
        OVER: gettext_noop("The game is over."),
    }[phase]


def check_player(player) -> object:
    """Players are opaque ids: a non-empty string or an integer (JSON-ready, hashable)."""
    if (type(player) is int) or (type(player) is str and player):
        return player
    raise IllegalAction("bad_player", gettext_noop("A player id must be an integer or a non-empty string, not %(player)s."),
            params={"player": repr(player)})


def check_die(die) -> int:
    if type(die) is not int or not 1 <= die <= 6:
        raise IllegalAction("bad_dice", gettext_noop("Dice must be integers from 1 to 6."))
    return die


def id_list(cubes) -> tuple:
    if not isinstance(cubes, (list, tuple)) or not cubes:
        raise IllegalAction("bad_cubes", gettext_noop("'cubes' must be a non-empty list of member ids."))
    for member in cubes:
        if not ((type(member) is int) or (type(member) is str)):
            raise IllegalAction("bad_cubes", gettext_noop("'cubes' must list member ids."))
    if len(set(cubes)) != len(cubes):
        raise IllegalAction("bad_cubes", gettext_noop("'cubes' lists a cube twice."))
    return tuple(cubes)

"""The chouette: one box against a team on one board, one cube per team member.

Pure rules, standard library only; the rulings are in ``docs/CHOUETTE.md``.
Players are opaque ids (integers or strings). The box plays White, the team
Black, with the absolute point numbers of RULES.md.

Seating, then a session and its first game:

>>> seating = seat(["ann", "bob", "cy"], {"ann": 6, "bob": 4, "cy": 2})
>>> session = ChouetteSession.new(ChouetteRules(), seating.order)
>>> session, game = session.start_game()
>>> game.box, game.captain, game.team
('ann', 'bob', ('bob', 'cy'))

The box wins the opening roll and plays 6-1; then the team is on roll. Bob
(captain) and Cy each decide on their cube, in team order, before Bob rolls:

>>> game = game.opening_roll(box_die=6, team_die=1)
>>> game = game.move("ann", [{"from": 13, "to": 7}, {"from": 8, "to": 7}])
>>> [(p.player, p.reason) for p in game.pending()]
[('bob', 'double_decision')]
>>> game = game.no_double("bob").apply("double", "cy")
>>> [(p.player, p.reason, p.cubes) for p in game.pending()]
[('ann', 'double_answer', ('cy',))]
>>> game.allowed_actions("ann")
('take', 'drop', 'beaver', 'propose_settlement', 'leave')

The box drops Cy's cube: Cy wins one point and is out; Bob plays on.

>>> game = game.drop("ann", cube="cy")
>>> game.phase, game.roller, game.running_scores()
('roll', 'bob', (('ann', -1), ('bob', 0), ('cy', 1)))
>>> game.may_consult("cy"), game.may_consult("bob")
(False, True)

Bob concedes a single point by settlement; the game is over and rotates:

>>> game = game.propose_settlement("bob", -1).accept_settlement("ann")
>>> result = game.result()
>>> result.scores, result.box_holds
((('ann', 0), ('bob', -1), ('cy', 1)), True)
>>> session = session.record(result)
>>> session.line, session.scores
(('ann', 'cy', 'bob'), (('ann', 0), ('bob', -1), ('cy', 1)))
"""

from .game import ChouetteGame
from .records import ChouetteResult, Cube, MemberResult, Offer, Payment, Pending
from .rules import (
    ANSWERS,
    BOX,
    BOX_COLOR,
    BUY,
    CUBE_WINDOW,
    LAST_MEMBER,
    MOVE,
    OPENING,
    OVER,
    PHASES,
    REASONS,
    ROLL,
    TEAM,
    TEAM_COLOR,
    ChouetteRules,
)
from .session import ChouetteSession, Seating, rotate, seat
from .surface import ACTIONS, REASON_ACTIONS, SAFE_ANSWER

__all__ = [
    "ChouetteRules", "ChouetteGame", "ChouetteSession", "ChouetteResult", "Seating", "seat", "rotate",
    "Cube", "MemberResult", "Offer", "Payment", "Pending",
    "ACTIONS", "REASON_ACTIONS", "SAFE_ANSWER", "PHASES", "REASONS",
    "OPENING", "CUBE_WINDOW", "ANSWERS", "BUY", "LAST_MEMBER", "ROLL", "MOVE", "OVER",
    "BOX", "TEAM", "BOX_COLOR", "TEAM_COLOR",
]

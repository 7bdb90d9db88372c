"""Drive chouettes through the real services (shared by the service, socket and browser tests)."""

from __future__ import annotations

from games import services
from games.engine import chouette as ce
from games.models import Chouette, ChouetteEvent, ChouetteGame


class CycleDice:
    """Scripted dice: ``script`` first (ints for single dice, pairs for rolls), then
    ``cycle`` over and over (pairs; a single die takes the first of the next pair)."""

    DEFAULT_CYCLE = [(6, 5), (4, 2), (3, 1), (6, 4), (5, 3), (2, 1), (6, 6), (5, 2), (4, 3), (6, 1), (5, 5),
                     (4, 1), (3, 2), (6, 3), (5, 4), (4, 4), (6, 2), (5, 1), (3, 3), (2, 2)]

    def __init__(self, script=(), cycle=None):
        self.script = list(script)
        self.cycle = list(cycle or self.DEFAULT_CYCLE)
        self.counter = 0
        self.i = 0

    def _next(self):
        self.counter += 1
        if self.script:
            return self.script.pop(0)
        value = self.cycle[self.i % len(self.cycle)]
        self.i += 1
        return value

    def die(self) -> int:
        v = self._next()
        return v if isinstance(v, int) else v[0]

    def roll(self) -> tuple:
        v = self._next()
        assert not isinstance(v, int), f"a roll was scripted as a single die {v}"
        return tuple(v)


def state(chouette_id):
    c = Chouette.objects.get(pk=chouette_id)
    row = c.games.filter(status=ChouetteGame.PLAYING).order_by("-number").first()
    session = ce.ChouetteSession.from_dict(c.state) if c.state else None
    return c, row, session, (ce.ChouetteGame.from_dict(row.state) if row else None)


def lowest_pip_play(game):
    plays = game.legal_plays()
    color = game.position.turn
    return min(plays, key=lambda p: (p.result.pip_count(color), repr(p)))


def polite(game, pending):
    """A human's default answer: never double, take, don't buy, drop the last-member choice."""
    reason = pending.reason
    if reason == "double_decision":
        return "no_double", {}
    if reason == "double_answer":
        return "take", {"cube": pending.cubes[0]}
    if reason == "raccoon_decision":
        return "no_raccoon", {"cube": pending.cubes[0]}
    if reason == "buy_decision":
        return "no_buy", {"cube": pending.cubes[0]}
    if reason == "last_member":
        return "drop", {}
    if reason == "move":
        return "move", {"steps": [s.to_dict() for s in lowest_pip_play(game).steps]}
    raise AssertionError(f"no answer for {reason}")


def step(chouette_id, humans, policy=polite, act=None):
    """One human decision (the first pending human). Returns False when only bots are waited for."""
    act = act or services.chouette_act
    c, row, _session, game = state(chouette_id)
    for p in game.pending():
        if p.player in humans:
            action, fields = policy(game, p)
            act(chouette_id=chouette_id, player=humans[p.player], action=action, expected_version=c.version,
                **fields)
            return True
    return False


def play_game_out(chouette_id, humans, policy=polite, limit=2000, act=None):
    """Play the current game to its end; returns the finished game row."""
    _c, row, _s, _g = state(chouette_id)
    number = row.number
    for _ in range(limit):
        done = ChouetteGame.objects.get(chouette_id=chouette_id, number=number)
        if done.status == ChouetteGame.FINISHED:
            return done
        if not step(chouette_id, humans, policy, act=act):
            raise AssertionError(f"stuck: waiting for {state(chouette_id)[3].pending()} (no bot acted)")
    raise AssertionError("the game did not end")


def check_invariants(chouette_id):
    c = Chouette.objects.get(pk=chouette_id)
    versions = list(ChouetteEvent.objects.filter(chouette=c).order_by("version").values_list("version", flat=True))
    assert versions == list(range(1, c.version + 1)), "events are numbered without gaps"
    session = ce.ChouetteSession.from_dict(c.state)
    assert sum(p for _who, p in session.scores) == 0
    assert len(set(session.line)) == len(session.line)
    for g in c.games.filter(status=ChouetteGame.FINISHED):
        assert sum(p for _w, p in ce.ChouetteResult.from_dict(g.result).scores) == 0
    return session

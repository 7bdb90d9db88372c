"""Fixtures for service tests: players and a Table that drives a match through the services."""

import pytest

from games import services
from games.dice import ScriptedDice
from games.engine import MOVE, TURN
from games.models import Game, GameEvent, Match


class Table:
    """Drives one match through the real services, the way the consumers and the API do."""

    def __init__(self, match, white, black):
        self.match_id = match.pk
        self.white = white
        self.black = black

    @property
    def match(self) -> Match:
        return Match.objects.get(pk=self.match_id)

    @property
    def game(self) -> Game:
        return Game.objects.filter(match_id=self.match_id).order_by("-number").first()

    @property
    def state(self):
        return self.game.game_state()

    def player(self, color):
        return self.white if color == "white" else self.black

    def do(self, action, color, **kwargs):
        """Call ``services.game_<action>`` as ``color`` on the current game."""
        fn = getattr(services, f"game_{action}")
        return fn(game_id=self.game.pk, player=self.player(color), **kwargs)

    def play(self, choose=None):
        """The side on roll plays: ``choose(plays)`` or the play leaving the lowest pip count."""
        state = self.state
        assert state.phase == MOVE, state.phase
        plays = state.legal_plays()
        play = choose(plays) if choose else min(plays, key=lambda p: (p.result.pip_count(state.actor), repr(p)))
        return self.do("move", state.actor, moves=[s.to_dict() for s in play.steps])

    def play_turns(self, n):
        for _ in range(n):
            if self.state.phase == TURN:
                self.do("roll", self.state.actor)
            self.play()

    def play_to_end(self, limit=400):
        """Race the current game to its end (rolling when a cube choice was possible)."""
        number = self.game.number
        for _ in range(limit):
            game = Game.objects.get(match_id=self.match_id, number=number)
            if game.status == Game.FINISHED:
                return game
            state = game.game_state()
            if state.phase == TURN:
                services.game_roll(game_id=game.pk, player=self.player(state.actor))
            else:
                self.play()
        raise AssertionError("the game did not end")

    def snapshot(self):
        game = self.game
        return (game.pk, game.version, dict(game.state), game.events.count(), game.status)


@pytest.fixture
def players(db):
    alice = services.player_register(username="alice", password="correct horse 1")
    bob = services.player_register(username="bob", password="correct horse 2")
    return alice, bob


@pytest.fixture
def make_table(players):
    """``make_table(length=3, opening=(3, 1), **options)``: a started match.

    ``opening`` is (white die, black die) for the first game's opening roll.
    """
    alice, bob = players

    def make(opening=(3, 1), dice=None, **options):
        match = services.match_create(creator=alice, **options)
        script = [(opening[0],), (opening[1],)] + list(dice or [])
        with services.use_dice(ScriptedDice(script)):
            services.match_join(player=bob, match_id=match.pk)
        return Table(match, alice, bob)

    return make


def event_types(game):
    return list(GameEvent.objects.filter(game=game).order_by("version").values_list("type", flat=True))

"""Game.game_state decodes the JSON state once per dict held, never a stale one (issue 16)."""

import pytest

from games.engine import GameState, Position
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_state_is_decoded_once_per_dict(make_table):
    game = make_table(length=3).game
    first = game.game_state()
    assert game.game_state() is first
    assert first == GameState.from_dict(game.state)


def test_a_stored_state_is_read_back_without_decoding_and_written_as_its_dict(make_table):
    game = make_table(length=3).game
    state = game.game_state()
    after = state.move(state.actor, state.legal_plays()[0].steps)  # the opening roll was played: a move
    game.set_game_state(after)
    assert game.game_state() is after
    assert game.state == after.to_dict()


def test_another_dict_in_state_is_decoded_anew(make_table):
    game = make_table(length=3).game
    before = game.game_state()
    other = GameState.from_dict({**game.state, "position": Position.initial("black").to_dict()})
    game.state = other.to_dict()  # assigned as the admin's repair or a test would
    assert game.game_state() == other and game.game_state() != before


def test_a_row_read_again_gives_the_state_another_writer_stored(make_table):
    table = make_table(length=3)
    game = table.game
    held = game.game_state()
    table.play()  # another writer moves: the row's state changes
    game.refresh_from_db()
    assert game.game_state() != held
    assert game.game_state() == Game.objects.get(pk=game.pk).game_state()

"""Races on PostgreSQL: two submissions for the same turn, exactly one wins.

SQLite ignores SELECT ... FOR UPDATE, so these run in the PostgreSQL pass of
``make test`` (tests/pg_pass.py runs the service tests again with
DATABASE_URL pointing at TEST_DATABASE_URL).
"""

import threading

import pytest
from django.db import connection

from games import services
from games.dice import ScriptedDice
from games.models import Game, GameEvent

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 8
PLAYS = ([{"from": 8, "to": 5}, {"from": 6, "to": 5}], [{"from": 24, "to": 21}, {"from": 24, "to": 23}])


@pytest.fixture(autouse=True)
def _on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: runs in the PostgreSQL pass of `make test` (tests/pg_pass.py)")


def _race(game_id, player, expected_version):
    """Submit two different legal plays at the same moment from two threads."""
    barrier = threading.Barrier(2)
    outcomes = []

    def submit(moves):
        try:
            barrier.wait(timeout=10)
            services.game_move(game_id=game_id, player=player, moves=moves, expected_version=expected_version)
            outcomes.append("ok")
        except ValueError as exc:
            outcomes.append(getattr(exc, "code", repr(exc)))
        except Exception as exc:  # an IntegrityError here would mean the lock failed
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(moves,)) for moves in PLAYS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)


def _new_game(alice, bob):
    match = services.match_create(creator=alice, length=3)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=bob, match_id=match.pk)
    return Game.objects.get(match=match)


@pytest.mark.parametrize("with_version", [True, False], ids=["expected-version", "no-version"])
def test_two_moves_for_the_same_turn_exactly_one_wins(with_version):
    alice = services.player_register(username="alice", password="correct horse 1")
    bob = services.player_register(username="bob", password="correct horse 2")
    loser_code = "stale_version" if with_version else "not_your_turn"
    for _ in range(ROUNDS):
        game = _new_game(alice, bob)
        before = game.version
        outcomes = _race(game.pk, alice, before if with_version else None)
        assert outcomes == sorted(["ok", loser_code])
        game.refresh_from_db()
        versions = list(GameEvent.objects.filter(game=game).order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, game.version + 1)) and game.version == before + 1
        assert game.events.filter(type="move").count() == 1
        assert game.game_state().actor == "black"

"""One lock order everywhere (services/lifecycle.py): queue joins, polls and leaves race game
actions and match ends of the same players from many threads on PostgreSQL, and no
transaction ever deadlocks or fails with anything but a refusal.

Runs in the PostgreSQL pass (SQLite has no row locks: it serialises every writer)."""

import random
import threading

import pytest
from django.db import connection

from games import services
from games.dice import ScriptedDice
from games.errors import ServiceError
from games.engine.errors import EngineError
from games.models import Game, Match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8
STEPS = 25


@pytest.fixture(autouse=True)
def _on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: runs in the PostgreSQL pass of `make test` (tests/pg_pass.py)")


def test_queue_and_game_actions_from_many_threads_never_deadlock():
    players = [services.player_register(username=f"r{i}", password=None) for i in range(8)]
    # Matches between neighbours: every player is both in a game and in the queue.
    games = []
    for i in range(0, 8, 2):
        match = services.match_create(creator=players[i], length=3)
        with services.use_dice(ScriptedDice([(3,), (1,)])):
            services.match_join(player=players[i + 1], match_id=match.pk)
        games.append(match.pk)
    failures, refusals = [], []
    barrier = threading.Barrier(THREADS)

    def worker(seed):
        rng = random.Random(seed)
        try:
            barrier.wait(timeout=20)
            for _ in range(STEPS):
                player = rng.choice(players)
                try:
                    kind = rng.random()
                    if kind < 0.3:
                        services.queue_join(player=player, length=rng.choice([1, 3]))
                    elif kind < 0.45:
                        services.queue_status(player=player)
                    elif kind < 0.55:
                        services.queue_leave(player=player)
                    else:
                        match_id = rng.choice(games)
                        game = Game.objects.filter(match_id=match_id).order_by("-number").first()
                        state = game.game_state()
                        actor = state.actor
                        match = Match.objects.get(pk=match_id)
                        if match.status != Match.PLAYING or actor is None:
                            continue
                        who = match.white if actor == "white" else match.black
                        if state.phase == "move" and rng.random() < 0.8:
                            play = state.legal_plays()[0].to_list()
                            services.game_move(game_id=game.pk, player=who, moves=play, expected_version=game.version)
                        elif rng.random() < 0.5:
                            services.game_resign(game_id=game.pk, player=who)  # ends games, and matches
                        else:
                            services.match_leave(match_id=match_id, player=who)  # forfeits: locks players
                except (ServiceError, EngineError) as exc:
                    refusals.append(exc.code)
        except Exception as exc:  # a deadlock (OperationalError), an IntegrityError...
            failures.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    assert failures == [], failures
    assert set(refusals) <= {"stale_version", "not_your_turn", "game_over", "match_over", "wrong_phase",
                             "not_a_player", "match_not_open", "own_match"}, set(refusals)
    # Every game's events are still numbered without gaps.
    for game in Game.objects.all():
        versions = list(game.events.order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, game.version + 1))

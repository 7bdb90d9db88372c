"""Races on PostgreSQL in a chouette: members answering the box's doubles at the same
moment are serialised by the chouette's row lock (every answer counts, the events are
numbered without gaps); two answers for the same version: one wins, one is stale."""

import threading

import pytest
from django.db import connection

from games import services
from games.models import Chouette, ChouetteEvent
from tests.services.chouette_support import CycleDice, state

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: runs in the PostgreSQL pass of `make test` (tests/pg_pass.py)")


def _together(calls):
    barrier = threading.Barrier(len(calls))
    outcomes = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            call()
            outcomes.append("ok")
        except ValueError as exc:
            outcomes.append(getattr(exc, "code", repr(exc)))
        except Exception as exc:
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return sorted(outcomes)


def test_simultaneous_answers_all_count_and_a_stale_one_is_refused():
    humans = [services.player_register(username=f"r{i}", password=f"correct horse {i}") for i in range(6)]
    ids = [p.pk for p in humans]
    c = services.chouette_create(player=humans[0])
    for p in humans[1:]:
        services.chouette_join(player=p, chouette_id=c.pk)
    with services.use_dice(CycleDice([6, 5, 4, 3, 2, 1, 1, 3])):
        services.chouette_start(chouette_id=c.pk, player=humans[0])
    with services.use_dice(CycleDice()):
        services.chouette_act(chouette_id=c.pk, player=humans[1], action="move",
                              steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
        services.chouette_act(chouette_id=c.pk, player=humans[0], action="double")
        calls = [lambda p=p: services.chouette_act(chouette_id=c.pk, player=p, action="take", cube=p.pk)
                 for p in humans[1:]]
        assert _together(calls) == ["ok"] * 5
        _c, _row, _s, game = state(c.pk)
        assert all(game.cube(m).value == 2 for m in ids[1:])
        c = Chouette.objects.get(pk=c.pk)
        versions = list(ChouetteEvent.objects.filter(chouette=c).order_by("version").values_list("version", flat=True))
        assert versions == list(range(1, c.version + 1))
        # the box rolled at once; two of its plays for the same version: one wins
        _c, _row, _s, game = state(c.pk)
        assert game.phase == "move" and game.roller == ids[0]
        plays = game.legal_plays()[:2]
        calls = [lambda play=play: services.chouette_act(
            chouette_id=c.pk, player=humans[0], action="move", expected_version=c.version,
            steps=[s.to_dict() for s in play.steps]) for play in plays]
        assert _together(calls) == ["ok", "stale_version"]

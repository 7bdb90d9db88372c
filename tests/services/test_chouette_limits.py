"""A chouette's limits through the real services: the cube limit (64 by default, like a
match's; none by option), so no cube runs away."""

import pytest
from django.test import Client

from games import services
from games.engine import chouette as ce
from games.engine.errors import IllegalAction
from games.models import Chouette, ChouetteGame
from tests.services.chouette_support import CycleDice, play_game_out, polite, state


def _players(n, prefix="p"):
    return [services.player_register(username=f"{prefix}{i}", password=f"correct horse {i}") for i in range(n)]


def _started(humans, **options):
    c = services.chouette_create(player=humans[0], options=options or None)
    for p in humans[1:]:
        services.chouette_join(player=p, invite_code=c.invite_code)
    with services.use_dice(CycleDice([6, 5, 4, 6, 5])):
        services.chouette_start(chouette_id=c.pk, player=humans[0])
    return c


def _doubler(game, pending):
    """Everyone doubles whenever allowed and takes every double."""
    if pending.reason == "double_decision":
        return ("double", {}) if "double" in game.allowed_actions(pending.player) else ("no_double", {})
    if pending.reason == "double_answer":
        return "take", {"cube": pending.cubes[0]}
    return polite(game, pending)


@pytest.mark.django_db(transaction=True)
def test_the_cube_stops_at_64_by_default():
    humans = _players(3)
    by_id = {p.pk: p for p in humans}
    c = _started(humans)
    assert c.rules["cubeLimit"] == 64
    with services.use_dice(CycleDice()):
        row = play_game_out(c.pk, by_id, policy=_doubler)
    result = ce.ChouetteResult.from_dict(row.result)
    values = [m.cube_value for m in result.members]
    assert max(values) == 64 and all(v <= 64 for v in values), values


def _captain_doubles(game, pending):
    """Only the captain doubles (the box takes); the crew's cube stays centred for the box."""
    if pending.reason == "double_decision":
        allowed = pending.player == game.captain and "double" in game.allowed_actions(pending.player)
        return ("double", {}) if allowed else ("no_double", {})
    return polite(game, pending)


@pytest.mark.django_db(transaction=True)
def test_a_double_past_the_limit_is_refused_and_changes_nothing():
    humans = _players(3)
    by_id = {p.pk: p for p in humans}
    c = _started(humans, cubeLimit=2)
    box = None
    with services.use_dice(CycleDice()):
        for _ in range(400):  # play until the box's window comes with a cube at the limit
            chouette, row, _session, game = state(c.pk)
            at_limit = [x.member for x in game.cubes if x.in_play and x.value == 2 and x.owner == "box"]
            if game.phase == ce.CUBE_WINDOW and game.window_decider() == game.box and at_limit:
                box = by_id[game.box]
                break
            p = next(p for p in game.pending() if p.player in by_id)
            action, fields = _captain_doubles(game, p)
            services.chouette_act(chouette_id=c.pk, player=by_id[p.player], action=action,
                                  expected_version=chouette.version, **fields)
    assert box is not None, "the box never held a cube at the limit"
    before = ChouetteGame.objects.get(pk=row.pk).state
    with pytest.raises(IllegalAction) as info:
        services.chouette_act(chouette_id=c.pk, player=box, action="double", cubes=[at_limit[0]],
                              expected_version=chouette.version)
    assert info.value.code == "cube_limit"
    assert ChouetteGame.objects.get(pk=row.pk).state == before
    assert Chouette.objects.get(pk=c.pk).version == chouette.version


@pytest.mark.django_db
@pytest.mark.parametrize("posted,limit", [("64", 64), ("8", 8), ("", None), ("none", None)])
def test_the_new_chouette_form_sets_the_cube_limit(posted, limit):
    owner = _players(1, "f")[0]
    client = Client()
    client.force_login(owner.user)
    response = client.post("/chouettes/new/", {"cube_limit": posted, "decision_seconds": "60"})
    assert response.status_code == 302
    assert Chouette.objects.get().rules["cubeLimit"] == limit


@pytest.mark.django_db
@pytest.mark.parametrize("posted", ["3", "1", "６４", "x"])
def test_a_bad_cube_limit_opens_nothing(posted):
    owner = _players(1, "f")[0]
    client = Client()
    client.force_login(owner.user)
    response = client.post("/chouettes/new/", {"cube_limit": posted}, follow=True)
    assert "power of two" in response.content.decode()
    assert not Chouette.objects.exists()

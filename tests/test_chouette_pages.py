"""The chouette's pages through HTTP: the list with the form, opening one, the invite link,
the table page, the history and the .txt log; private tables stay private."""

import re

import pytest

from games import services
from games.models import Chouette, ChouetteSeat
from tests.services.chouette_support import CycleDice, play_game_out


def _client(client, player):
    client.force_login(player.user)
    return client


@pytest.mark.django_db
def test_open_join_by_invite_play_and_read_the_history(client, django_user_model):
    from django.test import Client

    people = [services.player_register(username=f"h{i}", password=f"correct horse {i}") for i in range(3)]
    c0 = _client(client, people[0])
    page = c0.get("/chouettes/")
    assert page.status_code == 200 and b"New chouette" in page.content
    r = c0.post("/chouettes/new/", {"jacoby": "on", "beaver": "on", "captain_buys": "on", "last_member_buys": "on",
                                    "settlements": "on", "decision_seconds": "30"})
    chouette = Chouette.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/chouettes/{chouette.pk}/"
    assert chouette.decision_seconds == 30 and chouette.rules["raccoon"] is False
    table = c0.get(r["Location"])
    assert table.status_code == 200 and b'id="board"' in table.content
    invite = re.search(rb'/chouettes/join/[^"]+/', table.content).group().decode()
    # the lobby (and the home page) list it with its invite link
    assert invite.encode() in Client().get("/chouettes/").content
    assert invite.encode() in Client().get("/").content
    for p in people[1:]:
        other = Client()
        other.force_login(p.user)
        assert other.get(invite).status_code == 200
        assert other.post(invite)["Location"] == f"/chouettes/{chouette.pk}/"
    assert ChouetteSeat.objects.filter(chouette=chouette, active=True).count() == 3
    with services.use_dice(CycleDice([6, 5, 4, 3, 1])):
        services.chouette_start(chouette_id=chouette.pk, player=people[0])
    with services.use_dice(CycleDice()):
        play_game_out(chouette.pk, {p.pk: p for p in people})
    history = Client().get(f"/chouettes/{chouette.pk}/history/")
    assert history.status_code == 200 and b"<td>1</td>" in history.content
    log = Client().get(f"/chouettes/{chouette.pk}/log.txt")
    assert log["Content-Type"].startswith("text/plain")
    text = log.content.decode()
    assert "Game 1: box h0, team h1, h2" in text and "Scores:" in text


@pytest.mark.django_db
def test_a_private_chouette_is_not_listed_nor_shown_to_strangers(client):
    owner = services.player_register(username="own", password="correct horse 9")
    c = services.chouette_create(player=owner, private=True)
    assert f"/chouettes/{c.pk}/".encode() not in client.get("/chouettes/").content
    assert client.get(f"/chouettes/{c.pk}/").status_code == 404
    assert client.get(f"/chouettes/{c.pk}/log.txt").status_code == 404
    assert client.get(f"/chouettes/join/{c.invite_code}/").status_code == 200  # the link itself works
    assert client.post("/chouettes/new/").status_code == 302  # to the login page

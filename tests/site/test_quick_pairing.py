"""Quick pairing: a seek pool with a rating window that widens with the wait, and the
computer as a fallback, through the lobby's pages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.errors import ServiceError
from games.models import Match, Player, QueueEntry

pytestmark = pytest.mark.django_db


def player(name, rating=1500.0):
    p = services.player_register(username=name, password=f"correct horse {name}")
    Player.objects.filter(pk=p.pk).update(rating=rating)
    p.rating = rating
    return p


def test_similar_ratings_pair_at_once(settings):
    settings.GAMES_SEEK_WINDOW, settings.GAMES_SEEK_WIDEN = 200, 50
    a, b = player("a", 1500), player("b", 1650)
    assert services.queue_join(player=a, length=3)["status"] == "queued"
    assert services.queue_join(player=b, length=3)["status"] == "matched"


def test_distant_ratings_wait_until_the_window_has_widened(settings):
    settings.GAMES_SEEK_WINDOW, settings.GAMES_SEEK_WIDEN = 200, 50
    a, c = player("a", 1500), player("c", 1900)
    services.queue_join(player=a, length=3)
    assert services.queue_join(player=c, length=3)["status"] == "queued"  # 400 apart: not yet
    # a has waited 50 s: the window is 200 + 5 * 50 = 450 points
    QueueEntry.objects.filter(player=a).update(queued_at=timezone.now() - timedelta(seconds=50))
    assert services.queue_status(player=c)["status"] == "matched"


def test_guests_cannot_seek():
    host = player("host")
    match = services.match_create(creator=host, length=3)
    guest, _ = services.guest_join(invite_code=match.invite_code)
    with pytest.raises(ServiceError) as err:
        services.queue_join(player=guest, length=3)
    assert err.value.code == "guest_not_allowed" and not QueueEntry.objects.filter(player=guest).exists()


def test_the_pages_seek_then_fall_back_to_the_computer(client):
    a = player("a")
    client.force_login(a.user)
    response = client.post("/play/now/join/", {"length": "3", "fallback": "30"})
    assert response.status_code == 302 and response.url == "/play/now/?fallback=30"
    page = client.get(response.url).content.decode()
    assert 'id="seek-computer"' in page and 'data-fallback="30"' in page
    assert client.get("/play/now/status.json").json() == {"status": "queued", "matchLength": 3}
    response = client.post("/play/now/leave/", {"computer": "1", "level": "intermediate", "length": "3"})
    match = Match.objects.get(white=a)
    assert response.status_code == 302 and match.black.is_bot and match.length == 3
    assert not QueueEntry.objects.filter(player=a, status=QueueEntry.WAITING).exists()


def test_two_people_seeking_meet_in_a_match(client):
    a, b = player("a"), player("b")
    client.force_login(a.user)
    client.post("/play/now/join/", {"length": "5", "fallback": "0"})
    client.force_login(b.user)
    response = client.post("/play/now/join/", {"length": "5", "fallback": "0"})
    match = Match.objects.get()
    assert response.url == f"/matches/{match.pk}/" and {match.white_id, match.black_id} == {a.pk, b.pk}
    client.force_login(a.user)
    assert client.get("/play/now/status.json").json() == {"status": "matched", "matchId": match.pk}

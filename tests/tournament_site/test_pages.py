"""The tournaments' pages through the Django test client: the list by section, a
tournament's rules, entrants, bracket, standings and links to watch, enter and withdraw,
the director's start and house bots; the navigation link."""

from django.test import Client

from games import services
from games.models import Entry, Tournament
from tests.tournament_site.conftest import tournament_matches


def signed_in(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_the_list_shows_upcoming_running_and_finished(people):
    upcoming = services.tournament_create(by=people[0], name="Next week", format="swiss", length=3)
    running = services.tournament_create(by=people[0], name="Tonight", format="knockout", length=1)
    for p in people[:2]:
        services.tournament_enter(tournament_id=running.pk, player=p)
    services.tournament_start(tournament_id=running.pk)
    page = Client().get("/tournaments/").content.decode()
    assert page.index('id="upcoming"') < page.index("Next week") < page.index('id="running"') < page.index("Tonight")
    assert f'href="/tournaments/{upcoming.pk}/"' in page and 'href="/tournaments/"' in page  # the nav link
    (match,) = tournament_matches(running.pk)
    services.match_leave(match_id=match.pk, player=people[1])
    page = Client().get("/tournaments/").content.decode()
    assert page.index('id="finished"') < page.index("Tonight") and "ann" in page


def test_a_player_enters_and_withdraws_from_the_page(people):
    t = services.tournament_create(by=people[0], name="Club night", format="knockout", length=5,
                                   options={"consolation": "simple"}, round_deadline_hours=24)
    client = signed_in(people[1])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="enter"' in page and "Matches to 5 points" in page and "simple consolation" in page
    assert "Each match has 24 h" in page and 'id="start"' not in page
    assert client.post(f"/tournaments/{t.pk}/enter/").status_code == 302
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="withdraw"' in page and 'id="enter"' not in page and "bob" in page
    client.post(f"/tournaments/{t.pk}/withdraw/")
    assert Entry.objects.get(tournament=t, player=people[1]).status == Entry.WITHDRAWN
    assert Client().post(f"/tournaments/{t.pk}/enter/").status_code == 302  # to the login page
    assert Entry.objects.filter(tournament=t, status=Entry.ENTERED).count() == 0


def test_a_director_fills_with_bots_and_starts_and_the_bracket_links_each_table(people):
    t = services.tournament_create(by=people[0], name="Bracket", format="knockout", length=1)
    director = signed_in(people[0])
    assert 'id="start"' in director.get(f"/tournaments/{t.pk}/").content.decode()
    director.post(f"/tournaments/{t.pk}/bots/", {"level": "random", "count": "3"})
    services.tournament_enter(tournament_id=t.pk, player=people[1])
    assert signed_in(people[1]).post(f"/tournaments/{t.pk}/start/").status_code == 302  # not a director: refused
    assert Tournament.objects.get(pk=t.pk).status == Tournament.REGISTERING
    director.post(f"/tournaments/{t.pk}/start/")
    assert Tournament.objects.get(pk=t.pk).status == Tournament.RUNNING
    page = signed_in(people[1]).get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="bracket"' in page and "Semi-final" in page and "Final" in page and "winner of M-R1-1" in page
    for match in tournament_matches(t.pk):
        assert f'href="/matches/{match.pk}/"' in page
    mine = [m for m in tournament_matches(t.pk) if people[1].pk in (m.white_id, m.black_id)][0]
    assert 'id="your-match"' in page and page.count(f'href="/matches/{mine.pk}/"') >= 2


def test_a_swiss_shows_its_standings(people):
    t = services.tournament_create(by=people[0], name="Swiss", format="swiss", length=1, options={"rounds": 2})
    for p in people[:3]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="standings"' in page and "Buch." in page and 'id="bracket"' not in page
    assert Client().get("/tournaments/99999/").status_code == 404

"""The tournaments' pages through the Django test client: the list by section, a
tournament's rules, entrants, bracket, standings and links to watch, enter and withdraw,
the director's start and house bots; the navigation link."""

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

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


def test_a_director_pauses_awards_and_disqualifies_from_the_page_and_the_log_shows_it(people):
    t = services.tournament_create(by=people[0], name="Directed", format="knockout", length=1,
                                   options={"seeding": "given"})
    for p in people[:4]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    director, player = signed_in(people[0]), signed_in(people[1])
    page = director.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="director"' in page and 'id="pause"' in page and "Award to bob" in page
    assert 'id="director"' not in player.get(f"/tournaments/{t.pk}/").content.decode()
    assert player.post(f"/tournaments/{t.pk}/pause/").status_code == 302  # refused: changes nothing
    assert Tournament.objects.get(pk=t.pk).paused_at is None
    director.post(f"/tournaments/{t.pk}/pause/", {"reason": "a break"})
    page = director.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="paused"' in page and 'id="resume"' in page and "a break" in page
    director.post(f"/tournaments/{t.pk}/award/", {"key": "M-R1-2", "winner": people[2].pk})
    director.post(f"/tournaments/{t.pk}/disqualify/", {"player": people[3].pk, "reason": "abuse"})
    assert Entry.objects.get(tournament=t, player=people[3]).status == Entry.DISQUALIFIED
    page = director.get(f"/tournaments/{t.pk}/").content.decode()
    log = page[page.index('id="log"'):]
    assert log.index("Paused") < log.index("Awarded a match: cy (M-R1-2)") < log.index("Disqualified a player: dee")


def test_the_live_update_fetches_only_the_fragment_and_nothing_while_unchanged(people):
    t = services.tournament_create(by=people[0], name="Cheap", format="knockout", length=1)
    client = signed_in(people[1])
    version = Tournament.objects.get(pk=t.pk).version
    assert client.get(f"/tournaments/{t.pk}/", {"fragment": "1", "v": version}).status_code == 204
    services.tournament_enter(tournament_id=t.pk, player=people[2])
    fragment = client.get(f"/tournaments/{t.pk}/", {"fragment": "1", "v": version})
    body = fragment.content.decode()
    assert fragment.status_code == 200 and body.lstrip().startswith("<article") and "<header" not in body
    assert f'data-version="{version + 1}"' in body and "cy" in body
    assert client.get("/tournaments/999999/", {"fragment": "1", "v": 0}).status_code == 404


def tournament_reads(client, url, params) -> tuple:
    """The answer's status and how many of its queries read the tournament's own row."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url, params).status_code
    return status, sum(1 for q in queries if q["sql"].lstrip().upper().startswith("SELECT")
                       and 'FROM "games_tournament"' in q["sql"].split(" WHERE ")[0])


def test_the_fragment_reads_the_tournament_once(people):
    t = services.tournament_create(by=people[0], name="Once", format="knockout", length=1)
    client = signed_in(people[1])
    client.get("/tournaments/")  # the session and the player read before counting
    url = f"/tournaments/{t.pk}/"
    version = Tournament.objects.get(pk=t.pk).version
    assert tournament_reads(client, url, {"fragment": "1", "v": version}) == (204, 1)
    assert tournament_reads(client, url, {"fragment": "1", "v": version - 1}) == (200, 1)


def test_a_player_checks_in_and_sees_the_waiting_list(people):
    from datetime import timedelta

    from games import clock

    t = services.tournament_create(by=people[0], name="Check", format="knockout", max_entrants=2,
                                   starts_at=clock.now() + timedelta(minutes=10), check_in_minutes=30)
    for p in people[:3]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    page = signed_in(people[2]).get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="on-waiting-list"' in page and 'id="waiting-list"' in page and 'id="check-in"' in page
    client = signed_in(people[1])
    client.post(f"/tournaments/{t.pk}/check-in/")
    assert 'id="checked-in"' in client.get(f"/tournaments/{t.pk}/").content.decode()


def test_the_names_of_matches_and_bracket_slots_read_in_the_readers_language(people, monkeypatch):
    """The core's names ("Semi-final", "winner of M-R1-1"), stored in English when the bracket was
    drawn, are worded for each reader: the bracket's columns, its slots and the tables."""
    from django.utils import translation

    from games.engine import errors as engine_errors

    t = services.tournament_create(by=people[0], name="Words", format="knockout", length=1)
    for p in people[:4]:
        services.tournament_enter(tournament_id=t.pk, player=p)
    services.tournament_start(tournament_id=t.pk)
    monkeypatch.setattr(engine_errors, "translate", lambda text: f"[{translation.get_language()}] {text}")
    page = Client().get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h3>[de] Semi-final</h3>" in page and "<h3>[de] Final</h3>" in page
    assert "<i>[de] winner of M-R1-1</i>" in page
    assert '<span class="lbl">[de] Semi-final</span>' in page  # a table being played
    # a match that ended by a forfeit says how in words, not as its code
    first = tournament_matches(t.pk)[0]
    services.match_leave(match_id=first.pk, player=first.white)
    first.refresh_from_db()
    with translation.override("de"):
        how = str(first.END_WORDS[first.end_reason])
    assert how != first.end_reason
    page = Client().get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f'<span class="hint">({how})</span>' in page and f"({first.end_reason})" not in page
    from games.selectors.tournaments import tournament_detail

    with translation.override("tr"):  # the bot API's reading (its Accept-Language): the key stays
        detail = tournament_detail(Tournament.objects.get(pk=t.pk))
    assert {(m["key"], m["label"]) for m in detail["matches"]} == {
        ("M-R1-1", "[tr] Semi-final"), ("M-R1-2", "[tr] Semi-final")}

"""The clubs' pages through the Django test client: the list and a new club, the invite
link's page and joining, the ladder with its challenge buttons, a challenge from the page,
the members' page (ratings, PR), the owners' tools, the tournaments list by club; a refusal
shows its message and changes nothing."""

from django.test import Client

from games import services
from games.models import Challenge, Club, Membership, Tournament
from tests.clubs.conftest import club_of


def signed_in(player):
    client = Client()
    client.force_login(player.user)
    return client


def test_a_player_opens_a_club_from_the_list(people):
    client = signed_in(people[0])
    assert 'id="new-club"' in client.get("/clubs/").content.decode()
    assert 'id="new-club"' not in Client().get("/clubs/").content.decode()
    response = client.post("/clubs/new/", {"name": "Friday club", "description": "Fridays"})
    club = Club.objects.get(name="Friday club")
    assert response.url == f"/clubs/{club.pk}/"
    page = client.get(response.url).content.decode()
    assert "Fridays" in page and club.invite_token in page and 'id="renew-invite"' in page
    client.post("/clubs/new/", {"name": "friday CLUB"})  # refused: the name is taken
    assert Club.objects.count() == 1
    assert "A club of that name exists already." in client.get("/clubs/").content.decode()
    assert 'href="/clubs/"' in Client().get("/").content.decode()  # the nav link


def test_joining_by_the_invite_link(people):
    club = club_of(people, n=1)
    link = f"/clubs/join/{club.invite_token}/"
    anonymous = Client().get(link).content.decode()
    assert "Tuesday club" in anonymous and 'id="join-club"' not in anonymous and "/accounts/login/?next=" in anonymous
    assert Client().get("/clubs/join/nope/").status_code == 404
    client = signed_in(people[1])
    assert 'id="join-club"' in client.get(link).content.decode()
    assert client.post(link).url == f"/clubs/{club.pk}/"
    assert Membership.objects.get(club=club, player=people[1]).position == 2
    assert "You are a member already" in client.get(link).content.decode()
    guest = services.guest_create()
    guest_client = signed_in(guest)
    assert "Guests cannot join a club" in guest_client.get(link).content.decode()
    guest_client.post(link)
    assert Membership.objects.filter(club=club).count() == 2


def test_the_ladder_offers_the_challenges_in_reach_and_a_challenge_starts_a_match(club, people):
    client = signed_in(people[4])  # eve, 5th
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert page.count('class="button small challenge"') == 3 and "You are number 5 on the ladder." in page
    assert club.invite_token not in page and 'id="leave"' in page
    response = client.post(f"/clubs/{club.pk}/challenge/", {"defender": people[1].pk})
    challenge = Challenge.objects.get()
    assert response.url == f"/matches/{challenge.match_id}/"
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert 'id="your-challenge"' in page and "eve challenges bob" in page
    assert 'class="button small challenge"' not in page  # one open challenge at a time
    client.post(f"/clubs/{club.pk}/challenge/", {"defender": people[2].pk})
    assert Challenge.objects.count() == 1
    assert "You have an open challenge already" in client.get(f"/clubs/{club.pk}/").content.decode()
    signed_in(people[5]).post(f"/clubs/{club.pk}/challenge/", {"defender": people[0].pk})  # out of reach
    assert Challenge.objects.count() == 1
    services.match_leave(match_id=challenge.match_id, player=people[1])
    page = Client().get(f"/clubs/{club.pk}/").content.decode()
    assert "places swapped" in page and page.index(">eve<") < page.index(">bob<")


def test_the_members_page_shows_ratings_pr_and_the_owners_tools(club, people):
    page = signed_in(people[1]).get(f"/clubs/{club.pk}/members/").content.decode()
    assert 'id="members"' in page and page.count("<tr data-member") == 6 and "1500" in page and "—" in page
    assert "Make an owner" not in page
    owner = signed_in(people[0])
    page = owner.get(f"/clubs/{club.pk}/members/").content.decode()
    assert page.count("Make an owner") == 5 and page.count('class="remove"') == 5
    response = owner.post(f"/clubs/{club.pk}/remove/", {"player": people[2].pk, "back": "members"})
    assert response.url == f"/clubs/{club.pk}/members/"
    assert not Membership.objects.filter(club=club, player=people[2]).exists()
    signed_in(people[1]).post(f"/clubs/{club.pk}/remove/", {"player": people[3].pk})  # not an owner: refused
    assert Membership.objects.filter(club=club).count() == 5
    owner.post(f"/clubs/{club.pk}/role/", {"player": people[1].pk, "role": "owner"})
    assert Membership.objects.get(club=club, player=people[1]).role == "owner"


def test_owners_renew_the_link_change_settings_and_run_a_tournament(club, people):
    owner = signed_in(people[0])
    old = club.invite_token
    owner.post(f"/clubs/{club.pk}/invite/")
    club.refresh_from_db()
    assert club.invite_token != old and Client().get(f"/clubs/join/{old}/").status_code == 404
    owner.post(f"/clubs/{club.pk}/settings/", {"ladder_reach": "2", "match_length": "7", "challenge_hours": "48",
                                               "description": "New"})
    club.refresh_from_db()
    assert (club.ladder_reach, club.match_length, club.challenge_hours, club.description) == (2, 7, 48, "New")
    owner.post(f"/clubs/{club.pk}/settings/", {"ladder_reach": "99"})
    club.refresh_from_db()
    assert club.ladder_reach == 2
    signed_in(people[1]).post(f"/clubs/{club.pk}/tournaments/", {"name": "Nope", "format": "knockout", "length": "3"})
    assert not Tournament.objects.exists()
    response = owner.post(f"/clubs/{club.pk}/tournaments/", {"name": "Club cup", "format": "knockout", "length": "3"})
    t = Tournament.objects.get()
    assert t.club_id == club.pk and response.url == f"/tournaments/{t.pk}/"
    services.tournament_create(by=people[2], name="Open night", format="swiss", length=3)
    listed = Client().get(f"/tournaments/?club={club.pk}").content.decode()
    assert "Club cup" in listed and "Open night" not in listed and 'id="club-filter"' in listed
    assert "Open night" in Client().get("/tournaments/").content.decode()
    services.club_set_role(club_id=club.pk, by=people[0], player_id=people[1].pk, role="owner")
    assert 'id="start"' in signed_in(people[1]).get(f"/tournaments/{t.pk}/").content.decode()  # owners direct it
    assert "Club cup" in Client().get(f"/clubs/{club.pk}/").content.decode()


def test_leaving_from_the_page(club, people):
    client = signed_in(people[3])
    assert client.post(f"/clubs/{club.pk}/leave/").url == "/clubs/"
    assert not Membership.objects.filter(club=club, player=people[3]).exists()
    signed_in(people[0]).post(f"/clubs/{club.pk}/leave/")  # the last owner: refused
    assert Membership.objects.filter(club=club, player=people[0]).exists()
    assert Client().get("/clubs/999/").status_code == 404


def test_the_admin_shows_clubs_without_their_token_and_renews_it(club, people, admin_client):
    from django.urls import reverse

    for name in ("club", "membership", "challenge"):
        assert admin_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:games_club_change", args=[club.pk])).content.decode()
    assert "Tuesday club" in page and club.invite_token not in page
    old = club.invite_token
    admin_client.post(reverse("admin:games_club_changelist"),
                      {"action": "renew_invites", "_selected_action": [club.pk]})
    club.refresh_from_db()
    assert club.invite_token != old


def test_the_members_page_shows_the_pr_of_analysed_ladder_matches(club, people):
    from games.models import Analysis

    challenge = services.club_challenge(club_id=club.pk, by=people[2], defender_id=people[1].pk)
    services.match_leave(match_id=challenge.match_id, player=people[1])
    match = challenge.match
    match.refresh_from_db()
    Analysis.objects.create(match=match, depth=0, length=match.length, white_name=match.white.display_name,
                            black_name=match.black.display_name, result={}, white_pr=4.25, black_pr=9.5,
                            white_decisions=30, black_decisions=30)
    page = Client().get(f"/clubs/{club.pk}/members/").content.decode()  # a public match: anyone sees its PR
    white_row = page[page.index(f'<tr data-member="{match.white_id}">'):]
    black_row = page[page.index(f'<tr data-member="{match.black_id}">'):]
    assert "4.25" in white_row[:white_row.index("</tr>")] and "9.50" in black_row[:black_row.index("</tr>")]
    table = page[page.index("<tbody>"):page.index("</tbody>")]
    assert table.count("—") == 4  # the four members without an analysed match

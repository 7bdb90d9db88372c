"""``POST /api/tournaments``: a club's owners create the club's tournaments and staff the site's,
with the rules the tournament page shows; refusals are JSON errors that create nothing."""

from games import services
from games.models import Player, Tournament


def _player(agent):
    return Player.objects.get(pk=agent.id)  # an agent's id is its player's


def test_a_club_owner_creates_the_clubs_tournament_and_reads_it_back(agents):
    owner, member = agents(2)
    club = services.club_create(by=_player(owner), name="Tuesday club")
    r = owner.post("/api/tournaments", {
        "name": "Tuesday Swiss", "format": "swiss", "length": 5, "options": {"rounds": 3, "cube": True},
        "startsAt": "2030-01-07T19:00:00Z", "maxEntrants": 16, "ratingBand": [1200, None], "checkInMinutes": 15,
        "lateEntries": True, "clock": "blitz", "club": club.pk})
    assert r.status_code == 201, r.content
    made = r.json()
    assert (made["name"], made["format"], made["status"], made["club"]["id"]) == ("Tuesday Swiss", "swiss", "registering", club.pk)
    assert made["options"]["rounds"] == 3 and made["options"]["lengths"]["default"] == 5
    assert (made["maxEntrants"], made["ratingBand"], made["checkInMinutes"], made["lateEntries"]) == (16, [1200, None], 15, True)
    assert made["startsAt"].startswith("2030-01-07T19:00:00") and made["clock"]["preset"] == "blitz"
    assert made["you"]["isDirector"]
    # the same tournament, listed for the club and open for entries
    assert [t["id"] for t in member.get("/api/tournaments", club=str(club.pk)).json()["tournaments"]] == [made["id"]]
    assert member.post(f"/api/tournaments/{made['id']}/entries").status_code == 201


def test_staff_create_the_sites_tournaments_and_others_may_not(agents):
    staff, player = agents(2)
    user = _player(staff).user
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    r = player.post("/api/tournaments", {"name": "Open", "format": "knockout"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_allowed")
    club = services.club_create(by=_player(staff), name="Not yours")
    r = player.post("/api/tournaments", {"name": "Open", "format": "knockout", "club": club.pk})
    assert r.status_code == 403
    assert not Tournament.objects.exists()
    r = staff.post("/api/tournaments", {"name": "Site knock-out", "format": "knockout", "length": 3})
    assert r.status_code == 201 and r.json()["club"] is None and r.json()["options"]["lengths"]["default"] == 3
    assert Tournament.objects.get().created_by == _player(staff)


def test_bad_rules_are_refused_with_stable_codes_and_create_nothing(agents):
    (owner,) = agents(1)
    club = services.club_create(by=_player(owner), name="Strict club")
    cases = [
        ({"name": "", "format": "swiss"}, 400, "bad_name"),
        ({"name": "X", "format": "ladder"}, 400, "bad_format"),
        ({"name": "X", "format": "swiss", "length": 0}, 400, "bad_length"),
        ({"name": "X", "format": "swiss", "length": "7"}, 400, "bad_length"),
        ({"name": "X", "format": "swiss", "options": [1, 2]}, 400, "bad_option"),
        ({"name": "X", "format": "swiss", "options": {"lengths": [3]}}, 400, "bad_option"),
        ({"name": "X", "format": "swiss", "startsAt": "next tuesday"}, 400, "bad_start"),
        ({"name": "X", "format": "swiss", "startsAt": 17}, 400, "bad_start"),
        ({"name": "X", "format": "swiss", "ratingBand": [1500]}, 400, "bad_rating_band"),
        ({"name": "X", "format": "swiss", "ratingBand": [1800, 1200]}, 400, "bad_rating_band"),
        ({"name": "X", "format": "swiss", "clock": ["blitz"]}, 400, "bad_clock_preset"),
        ({"name": "X", "format": "swiss", "clock": "glacial"}, 400, "bad_clock_preset"),
        ({"name": "X", "format": "swiss", "correspondence": {"days": 2, "weeks": 1}}, 400, "bad_clock"),
        ({"name": "X", "format": "arena", "correspondence": {"days": 2}}, 400, "bad_clock"),
        ({"name": "X", "format": "knockout", "lateEntries": True}, 400, "late_entries_not_allowed"),
        ({"name": "X", "format": "swiss", "checkInMinutes": 10}, 400, "bad_check_in"),
        ({"name": "X", "format": "swiss", "maxEntrants": 1}, 400, "bad_limit"),
        ({"name": "X", "format": "swiss", "colour": "red"}, 400, "unknown_field"),
        ({"name": "X", "format": "swiss", "club": 999999}, 404, "club_not_found"),
        ({"name": "X", "format": "swiss", "club": "one"}, 404, "club_not_found"),
    ]
    for body, status, code in cases:
        body.setdefault("club", club.pk)
        r = owner.post("/api/tournaments", body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (body, r.content)
    r = owner.post("/api/tournaments", raw=b'{"name": "X", "format": "swiss", "name\\u0000": 1}')
    assert r.status_code == 400
    assert owner.post("/api/tournaments", raw=b"[" * 5000 + b"]" * 5000).status_code == 400
    assert not Tournament.objects.exists()

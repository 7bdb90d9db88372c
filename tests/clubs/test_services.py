"""Clubs through the services: membership (invite link, leave, remove, owners), the ladder
(challenge within reach, one open challenge each, the swap through the match-end hook, the
deadline's forfeit) and a club's tournaments; every refusal has its code and changes nothing."""

from datetime import timedelta

import pytest

from games import clock, services, tasks
from games.errors import ServiceError
from games.models import Challenge, Club, Match, Membership, Tournament
from games.selectors.clubs import club_detail, club_directs
from games.selectors.tournaments import tournament_list
from games.services.tournaments import is_director
from tests.clubs.conftest import club_of


def ladder(club):
    return list(Membership.objects.filter(club=club).order_by("position").values_list("player__display_name",
                                                                                         flat=True))


def snapshot(club):
    club.refresh_from_db()
    return (ladder(club), list(Membership.objects.filter(club=club).order_by("pk").values_list("role", flat=True)),
            Challenge.objects.count(), Match.objects.count(), club.invite_token)


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ServiceError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code, info.value.code
    return info.value


def test_members_join_by_the_invite_link_at_the_foot_of_the_ladder(club, people):
    assert ladder(club) == ["ann", "bob", "cy", "dee", "eve", "fay"]
    assert Membership.objects.get(club=club, player=people[0]).role == Membership.OWNER
    refused("already_member", services.club_join, token=club.invite_token, player=people[3])
    refused("bad_invite", services.club_join, token="nope", player=people[3])


def test_renewing_the_invite_link_ends_the_old_one(people):
    club = club_of(people, n=2)
    old = club.invite_token
    refused("not_an_owner", services.club_renew_invite, club_id=club.pk, by=people[1])
    assert Club.objects.get(pk=club.pk).invite_token == old
    renewed = services.club_renew_invite(club_id=club.pk, by=people[0]).invite_token
    assert renewed != old
    refused("bad_invite", services.club_join, token=old, player=people[2])
    services.club_join(token=renewed, player=people[2])
    assert ladder(club) == ["ann", "bob", "cy"]


def test_guests_cannot_join(people):
    club = club_of(people, n=1)
    guest = services.guest_create()
    refused("guest_not_allowed", services.club_join, token=club.invite_token, player=guest)
    assert ladder(club) == ["ann"]


def test_leaving_and_removal_close_the_gap(club, people):
    services.club_leave(club_id=club.pk, player=people[2])
    assert ladder(club) == ["ann", "bob", "dee", "eve", "fay"]
    refused("not_an_owner", services.club_remove_member, club_id=club.pk, by=people[1], player_id=people[3].pk)
    services.club_remove_member(club_id=club.pk, by=people[0], player_id=people[3].pk)
    assert ladder(club) == ["ann", "bob", "eve", "fay"]
    before = snapshot(club)
    refused("last_owner", services.club_leave, club_id=club.pk, player=people[0])
    refused("no_such_member", services.club_remove_member, club_id=club.pk, by=people[0], player_id=people[3].pk)
    refused("not_a_member", services.club_leave, club_id=club.pk, player=people[3])
    refused("club_not_found", services.club_leave, club_id=99999, player=people[1])
    refused("use_leave", services.club_remove_member, club_id=club.pk, by=people[0], player_id=people[0].pk)
    assert snapshot(club) == before


def test_owners_make_owners_and_keep_one(club, people):
    services.club_set_role(club_id=club.pk, by=people[0], player_id=people[1].pk, role="owner")
    refused("cannot_remove_owner", services.club_remove_member, club_id=club.pk, by=people[0], player_id=people[1].pk)
    services.club_leave(club_id=club.pk, player=people[0])  # another owner remains
    refused("last_owner", services.club_set_role, club_id=club.pk, by=people[1], player_id=people[1].pk, role="member")
    refused("bad_role", services.club_set_role, club_id=club.pk, by=people[1], player_id=people[2].pk, role="boss")
    assert ladder(club)[0] == "bob"


def test_settings_and_names_are_checked(people):
    club = club_of(people, n=2)
    refused("club_name_taken", services.club_create, by=people[2], name="TUESDAY  club")
    refused("bad_setting", services.club_create, by=people[2], name="Other", ladder_reach=0)
    refused("bad_setting", services.club_update, club_id=club.pk, by=people[0], match_length="5")
    refused("not_an_owner", services.club_update, club_id=club.pk, by=people[1], ladder_reach=5)
    services.club_update(club_id=club.pk, by=people[0], ladder_reach=5, description="Tuesdays, 20:00")
    club.refresh_from_db()
    assert (club.ladder_reach, club.description) == (5, "Tuesdays, 20:00")


def finish(match, winner):
    """The loser resigns the match by leaving it (a forfeit: the winner is awarded the match)."""
    loser = match.black if winner.pk == match.white_id else match.white
    services.match_leave(match_id=match.pk, player=loser)


def test_a_challenge_within_reach_is_a_match_of_the_clubs_length(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[4], defender_id=people[1].pk)  # eve (5) v bob (2)
    match = challenge.match
    assert (match.status, match.length, match.private, match.rated) == (Match.PLAYING, 5, False, True)
    assert {match.white_id, match.black_id} == {people[4].pk, people[1].pk}
    assert (challenge.challenger_position, challenge.defender_position) == (5, 2)
    assert challenge.deadline - challenge.created_at > timedelta(hours=71)


def test_bad_challenges_are_refused_and_change_nothing(club, people):
    services.club_challenge(club_id=club.pk, by=people[3], defender_id=people[2].pk)  # dee v cy
    outsider = services.player_register(username="zed", password="correct horse zed")
    before = snapshot(club)
    cases = [
        ("out_of_range", dict(by=people[5], defender_id=people[1].pk)),   # 4 places up, reach 3
        ("out_of_range", dict(by=people[1], defender_id=people[4].pk)),   # downwards
        ("own_challenge", dict(by=people[4], defender_id=people[4].pk)),
        ("challenge_open", dict(by=people[3], defender_id=people[0].pk)),  # dee has one
        ("opponent_busy", dict(by=people[4], defender_id=people[2].pk)),   # cy is defending
        ("not_a_member", dict(by=outsider, defender_id=people[1].pk)),
        ("no_such_member", dict(by=people[4], defender_id=outsider.pk)),
        ("no_such_member", dict(by=people[4], defender_id="x")),
    ]
    for code, kwargs in cases:
        refused(code, services.club_challenge, club_id=club.pk, **kwargs)
    refused("club_not_found", services.club_challenge, club_id=12345, by=people[4], defender_id=people[1].pk)
    assert snapshot(club) == before


def test_the_challenger_who_wins_swaps_places(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[4], defender_id=people[1].pk)
    finish(challenge.match, people[4])
    challenge.refresh_from_db()
    assert (challenge.status, challenge.winner_id, challenge.swapped) == (Challenge.PLAYED, people[4].pk, True)
    assert ladder(club) == ["ann", "eve", "cy", "dee", "bob", "fay"]  # the two swap; those between stay
    again = services.club_challenge(club_id=club.pk, by=people[4], defender_id=people[0].pk)  # a new one is allowed
    finish(again.match, people[0])
    again.refresh_from_db()
    assert (again.status, again.winner_id, again.swapped) == (Challenge.PLAYED, people[0].pk, False)
    assert ladder(club) == ["ann", "eve", "cy", "dee", "bob", "fay"]


def test_an_aborted_challenge_is_void(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[2], defender_id=people[1].pk)
    services.match_abort(match_id=challenge.match_id)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.VOID and ladder(club)[1:3] == ["bob", "cy"]


def test_leaving_voids_an_open_challenge_and_forfeits_its_match(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[2], defender_id=people[1].pk)
    services.club_leave(club_id=club.pk, player=people[1])
    challenge.refresh_from_db()
    challenge.match.refresh_from_db()
    assert challenge.status == Challenge.VOID
    assert (challenge.match.status, challenge.match.winner_id) == (Match.FINISHED, people[2].pk)
    assert ladder(club) == ["ann", "cy", "dee", "eve", "fay"]


def act_once(match):
    game = match.games.get()
    state = game.game_state()
    player = match.white if state.actor == "white" else match.black
    services.game_move(game_id=game.pk, player=player, moves=state.legal_plays()[0].to_list())
    return player


def run_at(moment):
    with clock.freeze(moment):
        return tasks.run_periodic(now=moment.timestamp()).get("club_challenges")


def test_the_member_who_never_came_forfeits_at_the_deadline(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[3], defender_id=people[1].pk)
    mover = act_once(challenge.match)
    assert run_at(challenge.deadline - timedelta(minutes=5)) == 0
    assert run_at(challenge.deadline + timedelta(seconds=31)) == 1
    challenge.refresh_from_db()
    assert (challenge.status, challenge.winner_id, challenge.match.end_reason) == (Challenge.PLAYED, mover.pk, "no_show")
    assert challenge.swapped == (mover.pk == people[3].pk)


def test_both_absent_voids_the_challenge(club, people):
    challenge = services.club_challenge(club_id=club.pk, by=people[3], defender_id=people[1].pk)
    run_at(challenge.deadline + timedelta(minutes=1))
    challenge.refresh_from_db()
    assert challenge.status == Challenge.VOID and challenge.match.status == Match.ABORTED
    assert ladder(club) == ["ann", "bob", "cy", "dee", "eve", "fay"]


def test_a_clubs_tournament_is_directed_by_its_owners_and_listed_by_club(club, people):
    refused("not_an_owner", services.club_tournament_create, club_id=club.pk, by=people[1], name="Cup",
            format="knockout", length=3)
    assert not Tournament.objects.exists()
    t = services.club_tournament_create(club_id=club.pk, by=people[0], name="Cup", format="knockout", length=3)
    other = services.tournament_create(by=people[2], name="Open", format="swiss", length=3)
    services.club_set_role(club_id=club.pk, by=people[0], player_id=people[1].pk, role="owner")
    assert club_directs(people[1], t) and is_director(t, people[1]) and not club_directs(people[1], other)
    assert not club_directs(people[2], t) and not is_director(t, people[3])
    assert [row["name"] for row in tournament_list(club=club.pk)] == ["Cup"]
    assert {row["name"] for row in tournament_list()} == {"Cup", "Open"}
    services.tournament_enter(tournament_id=t.pk, player=people[2])
    services.tournament_enter(tournament_id=t.pk, player=people[3])
    services.tournament_start(tournament_id=t.pk, by=people[1])  # a club owner starts it
    assert Tournament.objects.get(pk=t.pk).status == Tournament.RUNNING


def test_the_detail_shows_ratings_pr_and_who_may_be_challenged(club, people):
    detail = club_detail(club, people[4])
    assert [m["name"] for m in detail["memberList"]] == ["ann", "bob", "cy", "dee", "eve", "fay"]
    assert detail["memberList"][0]["rating"] == 1500 and detail["memberList"][0]["pr"] is None
    assert detail["you"]["canChallenge"] == [people[1].pk, people[2].pk, people[3].pk]
    assert "inviteToken" not in detail and club_detail(club, people[0])["inviteToken"] == club.invite_token


def test_a_challenge_made_between_the_two_locks_of_a_leave_is_refused(club, people):
    """Leaving locks the leaver's challenge matches, then the club: a challenge that came
    in between (its match not locked first) is refused, not locked out of order."""
    from django.db import transaction

    from games.services.clubs import do_remove, lock_club

    challenge = services.club_challenge(club_id=club.pk, by=people[2], defender_id=people[1].pk)
    before = snapshot(club)
    with pytest.raises(ServiceError) as info, transaction.atomic():
        do_remove(lock_club(club.pk), Membership.objects.get(club=club, player=people[1]), locked=[])
    assert info.value.code == "club_busy" and snapshot(club) == before
    assert Challenge.objects.get(pk=challenge.pk).status == Challenge.OPEN

"""The forfeit ruling (README, Forfeits) seen from every view: a 5-point match whose player
is suspended at 0-0 is awarded to the opponent, its game in progress scores nothing, and
the score everywhere is the one reached by play (0-0), never "wins 3 points (backgammon)"."""

import pytest

from games import services
from games.dice import ScriptedDice
from games.models import GameEvent, Match, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def suspended_match(db):
    ann, ben = (services.player_register(username=n, password=f"correct horse {n}") for n in ("ann", "ben"))
    match = services.match_create(creator=ann, length=5)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=ben, match_id=match.pk)
    services.player_set_suspended(player=ann, suspended=True)
    match.refresh_from_db()
    return match, ann, ben


def test_the_match_is_awarded_at_the_score_reached_and_rated(suspended_match):
    match, ann, ben = suspended_match
    assert (match.status, match.end_reason, match.winner_id) == (Match.FINISHED, "suspended", ben.pk)
    assert (match.white_score, match.black_score) == (0, 0)
    game = match.games.get()
    assert (game.winner_color, game.points) == ("black", 0)
    end = GameEvent.objects.get(game=game, type="game_end").payload
    assert (end["points"], end["score"], end["matchWinner"], end["matchReason"]) == (0, [0, 0], "black", "suspended")
    # rated as a 5-point match lost and won
    assert end["ratingChanges"]["black"]["change"] > 0 > end["ratingChanges"]["white"]["change"]
    assert Player.objects.get(pk=ben.pk).matches_won == 1
    assert match.forfeit_note == "by forfeit (account suspended)"


def test_replay_profile_and_mat_say_the_same(suspended_match, client):
    match, ann, ben = suspended_match
    game = match.games.get()
    steps = client.get(f"/games/{game.pk}/replay.json").json()
    steps = steps.get("steps", steps)
    end = [s for s in steps if s["t"] == "game_end"][-1]["d"]
    assert (end["winner"], end["points"], end["reason"]) == ("black", 0, "forfeit")

    page = client.get(f"/players/{ben.pk}/").content.decode()
    assert "won</span> by forfeit (account suspended)" in page and "0–0" in page

    client.force_login(ben.user)
    mat = client.get(f"/matches/{match.pk}/export.mat").content.decode()
    assert mat.startswith("; ben wins the match by forfeit (suspended) at 0-0 (ben-ann)")
    assert "Wins" not in mat  # the game in progress scored nothing


def test_a_money_session_keeps_the_stakes_of_the_game_in_progress(db):
    ann, ben = (services.player_register(username=n, password=f"correct horse {n}") for n in ("ann", "ben"))
    match = services.match_create(creator=ann, length=0)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        services.match_join(player=ben, match_id=match.pk)
    services.match_leave(match_id=match.pk, player=ann)
    match.refresh_from_db()
    assert match.winner_id is None and (match.white_score, match.black_score) == (0, 3)
    assert match.forfeit_note == ""

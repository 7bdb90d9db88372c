"""Chouettes through the real services: whole sessions of several games with 4 and 6
players (one a house bot, whose decisions run in the task queue), scripted dice, the
rules enforced, every refusal changing nothing."""

from datetime import timedelta

from django.utils import timezone

import pytest

from games import services
from games.engine import chouette as ce
from games.errors import BadRequest, Conflict, Forbidden
from games.engine.errors import IllegalAction
from games.models import Chouette, ChouetteChat, ChouetteEvent, ChouetteGame, ChouetteSeat
from games.selectors import chouettes as chouette_view
from tests.services.chouette_support import CycleDice, check_invariants, play_game_out, polite, state


def _players(n, prefix="p"):
    return [services.player_register(username=f"{prefix}{i}", password=f"correct horse {i}") for i in range(n)]


def _open(humans, dice, bot_level=None, **options):
    """Open, seat and start a chouette; ``dice``: the seating dice, then the opening's."""
    creator = humans[0]
    c = services.chouette_create(player=creator, options=options or None)
    for p in humans[1:]:
        services.chouette_join(player=p, invite_code=c.invite_code)
    bot = services.chouette_add_bot(chouette_id=c.pk, player=creator, level=bot_level) if bot_level else None
    with services.use_dice(CycleDice(dice)):
        services.chouette_start(chouette_id=c.pk, player=creator)
    return c, bot


@pytest.mark.django_db(transaction=True)
def test_four_players_with_a_house_bot_play_several_games(settings):
    humans = _players(3)
    by_id = {p.pk: p for p in humans}
    # seating: 6, 5, 4, the bot 3; opening 6-5: the box moves first
    c, bot = _open(humans, [6, 5, 4, 3, 6, 5], bot_level="beginner")
    c, _row, session, game = state(c.pk)
    assert session.line == (humans[0].pk, humans[1].pk, humans[2].pk, bot.pk)
    assert game.box == humans[0].pk and game.captain == humans[1].pk
    with services.use_dice(CycleDice()):
        for _ in range(3):
            play_game_out(c.pk, by_id)
            session = check_invariants(c.pk)
    c = Chouette.objects.get(pk=c.pk)
    assert session.games_played == 3
    assert ChouetteEvent.objects.filter(chouette=c, actor=bot).exclude(type="seat").exists(), "the bot played"
    bot_moves = ChouetteEvent.objects.filter(chouette=c, actor=bot, type__in=["move", "no_double", "double",
                                                                             "take", "drop"]).count()
    assert bot_moves > 0
    # the bot sat in more than one role over the session: it played the checkers as captain or box
    roles = {("box" if g.state["box"] == bot.pk else "captain" if g.state["team"][0] == bot.pk else "crew")
             for g in ChouetteGame.objects.filter(chouette=c)}
    assert len(roles) >= 2 and roles & {"box", "captain"}, roles
    assert ChouetteEvent.objects.filter(chouette=c, actor=bot, type="move").exists()
    assert sorted(session.line) == sorted([p.pk for p in humans] + [bot.pk])
    history = chouette_view.history(c)
    assert [h["number"] for h in history] == [1, 2, 3]
    log = chouette_view.text_log(c)
    assert "Game 3: box" in log and "Scores:" in log


def _answer_script(script):
    """A policy that follows ``script`` (a list of (reason, action, fields) consumed in order,
    for human decisions of that reason), else the polite default."""

    def policy(game, pending):
        for i, (reason, action, fields) in enumerate(script):
            if reason == pending.reason:
                script.pop(i)
                return action, fields if not callable(fields) else fields(game, pending)
        return polite(game, pending)

    return policy


@pytest.mark.django_db(transaction=True)
def test_six_players_cubes_drops_takes_buy_settlement_and_timeouts():
    humans = _players(6)
    by_id = {p.pk: p for p in humans}
    ids = [p.pk for p in humans]
    # seating 6 5 4 3 2 1; opening: box 1, team 3 -> the team moves first (3-1)
    c, _ = _open(humans, [6, 5, 4, 3, 2, 1, 1, 3])
    c, _row, session, game = state(c.pk)
    assert game.box == ids[0] and game.team == tuple(ids[1:]) and game.on_roll == "team"

    with services.use_dice(CycleDice()):
        # the team plays 3-1; the box's window: it doubles every member
        services.chouette_act(chouette_id=c.pk, player=humans[1], action="move",
                              steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
        c, _row, _s, game = state(c.pk)
        assert game.phase == "cube_window" and game.window_decider() == ids[0]
        services.chouette_act(chouette_id=c.pk, player=humans[0], action="double")
        c, _row, _s, game = state(c.pk)
        assert {p.player for p in game.pending()} == set(ids[1:])
        assert c.deadline is not None  # a cube decision's timer runs
        # members answer on their own, in any order, each with the version he saw (answers are
        # not refused as stale): 5 drops, the captain and 2 take, 3 and 4 time out
        seen = c.version
        for who, answer in [(5, "drop"), (1, "take"), (2, "take")]:
            services.chouette_act(chouette_id=c.pk, player=humans[who], action=answer, cube=ids[who],
                                  expected_version=seen)
        with pytest.raises(IllegalAction) as err:
            services.chouette_act(chouette_id=c.pk, player=humans[1], action="take", cube=ids[1], expected_version=seen)
        assert err.value.code == "already_answered"
        with pytest.raises(IllegalAction) as err:  # a member cannot answer another's cube
            services.chouette_act(chouette_id=c.pk, player=humans[2], action="take", cube=ids[3])
        assert err.value.code in ("cube_not_available", "not_your_turn")
        c = Chouette.objects.get(pk=c.pk)
        assert services.chouette_timeout(chouette_id=c.pk, now=c.deadline - timedelta(seconds=1)) == 0
        assert services.chouette_timeout(chouette_id=c.pk, now=c.deadline + timedelta(seconds=1)) == 2
        c, _row, _s, game = state(c.pk)
        assert {cube.member for cube in game.cubes if not cube.in_play} >= {ids[3], ids[4], ids[5]}
        # rule 3: the captain may buy the dropped cubes; he buys 5's
        assert game.phase == "buy"
        services.chouette_act(chouette_id=c.pk, player=humans[1], action="buy", cube=ids[5])
        c, _row, _s, game = state(c.pk)
        while game.phase == "buy":
            services.chouette_act(chouette_id=c.pk, player=humans[1], action="no_buy", cube=game.pending()[0].cubes[0])
            c, _row, _s, game = state(c.pk)
        # rule 5: member 2 settles his cube with the box for one point
        services.chouette_act(chouette_id=c.pk, player=humans[2], action="propose_settlement", amount=-1,
                              cubes=[ids[2]])
        services.chouette_act(chouette_id=c.pk, player=humans[0], action="accept_settlement", cube=ids[2])
        c, _row, _s, game = state(c.pk)
        assert not game.in_game(ids[2])
        assert sum(p for _w, p in game.running_scores()) == 0
        finished = play_game_out(c.pk, by_id)
        result = ce.ChouetteResult.from_dict(finished.result)
        session = check_invariants(c.pk)
        hows = {m.player: m.how for m in result.members}
        assert hows[ids[5]] == "sold_to_captain" and hows[ids[2]] == "settled"
        assert hows[ids[3]] == hows[ids[4]] == "dropped"
        # two more games, a team double taken in the second
        script = [("double_decision", "double", {}), ("double_answer", "take", lambda g, p: {"cube": p.cubes[0]})]
        play_game_out(c.pk, by_id, policy=_answer_script(script))
        play_game_out(c.pk, by_id)
    session = check_invariants(c.pk)
    assert session.games_played == 3
    assert sorted(session.line) == sorted(ids)


@pytest.mark.django_db
def test_refusals_change_nothing():
    humans = _players(5)
    c = services.chouette_create(player=humans[0])
    with pytest.raises(BadRequest) as err:
        services.chouette_create(player=humans[0], options={"raccoon": True, "beaver": False})
    assert err.value.code == "bad_rules"
    with pytest.raises(BadRequest):
        services.chouette_create(player=humans[0], options={"nonsense": 1})
    services.chouette_join(player=humans[1], chouette_id=c.pk)
    with pytest.raises(Conflict) as err:
        services.chouette_join(player=humans[1], chouette_id=c.pk)
    assert err.value.code == "already_seated"
    with pytest.raises(Conflict) as err:
        services.chouette_start(chouette_id=c.pk, player=humans[0])
    assert err.value.code == "not_enough_players"
    services.chouette_join(player=humans[2], chouette_id=c.pk)
    with pytest.raises(Forbidden):
        services.chouette_start(chouette_id=c.pk, player=humans[1])
    small = services.chouette_create(player=humans[4], options={"maxPlayers": 3})
    for p in humans[1:3]:
        services.chouette_join(player=p, chouette_id=small.pk)
    with pytest.raises(Conflict) as err:
        services.chouette_join(player=humans[3], chouette_id=small.pk)
    assert err.value.code == "table_full"
    services.chouette_leave(chouette_id=small.pk, player=humans[4])  # the creator leaves: anyone seated starts
    services.chouette_join(player=humans[3], chouette_id=small.pk)
    with services.use_dice(CycleDice([6, 5, 4, 3, 1])):
        services.chouette_start(chouette_id=small.pk, player=humans[2])
    assert state(small.pk)[3] is not None
    with services.use_dice(CycleDice([6, 5, 4, 1, 3])):  # opening: box 1, team 3
        services.chouette_start(chouette_id=c.pk, player=humans[0])
    c, row, _s, game = state(c.pk)
    before = (c.version, dict(row.state))
    for kwargs, code in [
        (dict(player=humans[0], action="move", steps=[{"from": 17, "to": 20}]), "not_your_turn"),
        (dict(player=humans[2], action="move", steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}]),
         "not_captain"),
        (dict(player=humans[1], action="move", steps=[{"from": 1, "to": 9}]), None),
        (dict(player=humans[1], action="fly"), "unknown_action"),
        (dict(player=humans[1], action="no_double", expected_version=0), "stale_version"),
        (dict(player=humans[3], action="no_double"), "not_in_game"),
    ]:
        with pytest.raises((IllegalAction, BadRequest, Conflict, Forbidden, ValueError)) as err:
            services.chouette_act(chouette_id=c.pk, **kwargs)
        if code:
            assert getattr(err.value, "code", None) == code, (kwargs, err.value)
        c2, row2, _s, _g = state(c.pk)
        assert (c2.version, dict(row2.state)) == before
    # a newcomer during a game waits for the end of the game
    services.chouette_join(player=humans[3], chouette_id=c.pk)
    _c, _r, session, game = state(c.pk)
    assert humans[3].pk in session.waiting and humans[3].pk not in game.players


@pytest.mark.django_db
def test_team_chat_and_suggestions_stay_in_the_team():
    humans = _players(4)
    ids = [p.pk for p in humans]
    c, _ = _open(humans, [6, 5, 4, 3, 1, 3], fullConsultation=True)
    services.chouette_chat(chouette_id=c.pk, player=humans[2], text="go for the 5 point", room="team")
    with pytest.raises(Forbidden):
        services.chouette_chat(chouette_id=c.pk, player=humans[0], text="I am the box", room="team")
    services.chouette_suggest(chouette_id=c.pk, player=humans[2], steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    with pytest.raises(BadRequest):
        services.chouette_suggest(chouette_id=c.pk, player=humans[3], steps=[{"from": 1, "to": 20}])
    with pytest.raises(Forbidden):
        services.chouette_suggest(chouette_id=c.pk, player=humans[0], steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    team_view = chouette_view.chat_recent(c, ids[1])
    box_view = chouette_view.chat_recent(c, ids[0])
    assert [m["text"] for m in team_view] == ["go for the 5 point", "suggests 17/20 19/20"]
    assert box_view == []
    assert ChouetteChat.objects.filter(play__isnull=False).count() == 1


@pytest.mark.django_db
def test_absent_members_leave_the_line_between_games(settings):
    settings.GAMES_CHOUETTE_ABSENT_AFTER = 0
    humans = _players(5)
    by_id = {p.pk: p for p in humans}
    c, _ = _open(humans, [6, 5, 4, 3, 2, 6, 5])
    services.chouette_presence(chouette_id=c.pk, player_id=humans[4].pk, here=False)
    with services.use_dice(CycleDice()):
        play_game_out(c.pk, by_id)
    _c, _r, session, game = state(c.pk)
    assert humans[4].pk not in session.line and humans[4].pk not in game.players
    assert ChouetteEvent.objects.filter(chouette=c, type="unseat", payload__reason="absent").count() == 1
    assert ChouetteGame.objects.filter(chouette=c).count() == 2


@pytest.mark.django_db
def test_leaving_during_a_game_keeps_the_cubes_in_play_and_leaves_the_line_after_it():
    humans = _players(4)
    by_id = {p.pk: p for p in humans}
    c, _ = _open(humans, [6, 5, 4, 3, 1, 3])
    services.chouette_act(chouette_id=c.pk, player=humans[3], action="leave")
    _c, _r, session, game = state(c.pk)
    assert humans[3].pk in session.leaving and humans[3].pk in game.departed
    assert game.cube(humans[3].pk).in_play  # his cube is decided by the board
    with services.use_dice(CycleDice()):
        play_game_out(c.pk, {k: v for k, v in by_id.items() if k != humans[3].pk})
    session = check_invariants(c.pk)
    assert humans[3].pk not in session.line and humans[3].pk in dict(session.scores)
    assert ChouetteEvent.objects.filter(chouette=c, type="unseat", payload__reason="left").count() == 1


@pytest.mark.django_db
def test_the_periodic_work_times_out_decisions_and_wakes_waiting_bots(settings):
    from games import tasks

    humans = _players(3)
    c, _ = _open(humans, [6, 5, 4, 3, 1])  # the box moves first: its window comes after the team's move
    c, _row, _s, game = state(c.pk)
    services.chouette_act(chouette_id=c.pk, player=humans[0], action="move",
                          steps=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    c, _row, _s, game = state(c.pk)
    assert game.phase == "cube_window" and c.deadline is not None
    Chouette.objects.filter(pk=c.pk).update(deadline=c.deadline - timedelta(days=1))
    assert services.chouette_expire_deadlines() == 1
    c2, _row, _s, game = state(c.pk)
    assert ChouetteEvent.objects.filter(chouette=c, type="timeout").count() == 1 and c2.version > c.version
    assert services.chouettes_bots_waiting(idle=timedelta(seconds=0)) == []


@pytest.mark.django_db
def test_a_house_bot_whose_task_was_lost_is_woken_by_the_periodic_work():
    """In this test's transaction nothing is published (no commit), as if the bot's task
    was lost: the periodic work finds the bot waiting and its task plays."""
    from games import tasks

    humans = _players(2)
    c, bot = _open(humans, [3, 2, 6, 1, 3], bot_level="beginner")  # the bot is the box; the team moves
    services.chouette_act(chouette_id=c.pk, player=humans[0], action="move",
                          steps=[{"from": 17, "to": 20}, {"from": 19, "to": 20}])
    c, _row, _s, game = state(c.pk)
    assert game.box == bot.pk and game.actor_set() == {bot.pk}
    assert services.chouettes_bots_waiting(idle=timedelta(seconds=0)) == [(c.pk, c.version)]
    assert tasks._resume_chouette_bots() == 0  # not waiting long enough yet
    ChouetteEvent.objects.filter(chouette=c).update(created_at=timezone.now() - timedelta(minutes=1))
    with services.use_dice(CycleDice()):
        assert tasks._resume_chouette_bots() == 1
    c2, _row, _s, game = state(c.pk)
    assert c2.version > c.version
    assert ChouetteEvent.objects.filter(chouette=c, actor=bot, type__in=["double", "no_double"]).count() == 1


@pytest.mark.django_db
def test_a_captain_away_too_long_on_his_move_leaves_and_the_next_member_plays(settings):
    settings.GAMES_CHOUETTE_ABSENT_AFTER = 60
    humans = _players(4)
    ids = [p.pk for p in humans]
    c, _ = _open(humans, [6, 5, 4, 3, 1, 3])  # the team moves first: the captain must play 3-1
    services.chouette_presence(chouette_id=c.pk, player_id=ids[1], here=False)
    assert services.chouette_drop_absent_movers() == 0  # not away long enough
    ChouetteSeat.objects.filter(player_id=ids[1]).update(away_since=timezone.now() - timedelta(minutes=5))
    assert services.chouette_drop_absent_movers() == 1
    _c, _r, session, game = state(c.pk)
    assert ids[1] in game.departed and game.captain == ids[2] and game.roller == ids[2]
    assert ids[1] in session.leaving
    assert ChouetteEvent.objects.filter(chouette=c, type="unseat", payload__reason="absent").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_games_end_carries_its_final_position_and_the_snapshot_finds_it_again():
    """``game_end`` says where the checkers stood (the next game starts at once), and a viewer's
    snapshot has the last end as ``lastEnd``: its result, lines, scores, final position and age."""
    humans = _players(3, prefix="e")
    by_id = {p.pk: p for p in humans}
    c, _ = _open(humans, [6, 5, 4, 3, 6])
    assert chouette_view.snapshot(Chouette.objects.get(pk=c.pk), humans[0].pk)["lastEnd"] is None
    with services.use_dice(CycleDice()):
        play_game_out(c.pk, by_id)
    c = Chouette.objects.get(pk=c.pk)
    finished = ChouetteGame.objects.get(chouette=c, number=1)
    final = ce.ChouetteGame.from_dict(finished.state).position.to_dict()
    end = ChouetteEvent.objects.get(chouette=c, type="game_end")
    assert end.payload["position"] == final and end.payload["number"] == 1
    if end.payload["result"]["ending"] == "bearoff":
        assert 15 in (final["whiteOff"], final["blackOff"]), "borne off: one side's fifteen are off"
    snap = chouette_view.snapshot(c, None)
    assert snap["game"]["number"] == 2, "the next game has begun"
    last = snap["lastEnd"]
    assert last["number"] == 1 and last["position"] == final
    assert last["result"] == finished.result and last["lines"] == end.payload["lines"]
    assert last["scores"] == end.payload["scores"]
    assert 0 <= last["ago"] < 60


@pytest.mark.django_db(transaction=True)
def test_the_state_names_exactly_the_players_the_start_accepts():
    """``starters`` in the table's state (what the page shows Start to) is the start's own rule:
    nobody while too few sit, the host when he sits, anyone seated once he left, nobody once
    started; each named player's start is accepted and every other refused."""
    ann, bob, cy, dee = _players(4, prefix="st")

    def named(c):
        return chouette_view.public_state(*state(c.pk))["starters"]

    def refused(c, who):
        for p in who:
            with pytest.raises((Forbidden, Conflict)):
                services.chouette_start(chouette_id=c.pk, player=p)

    c = services.chouette_create(player=ann)
    services.chouette_join(player=bob, chouette_id=c.pk)
    assert named(c) == []
    refused(c, [ann, bob, cy])
    services.chouette_join(player=cy, chouette_id=c.pk)
    assert named(c) == [ann.pk]
    refused(c, [bob, cy, dee])
    services.chouette_leave(chouette_id=c.pk, player=ann)
    services.chouette_join(player=dee, chouette_id=c.pk)
    assert named(c) == [bob.pk, cy.pk, dee.pk]
    refused(c, [ann])
    with services.use_dice(CycleDice([[6], [5], [4], [6, 5]])):
        services.chouette_start(chouette_id=c.pk, player=cy)
    assert named(c) == []

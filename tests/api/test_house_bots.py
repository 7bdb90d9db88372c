"""House bots: a human on a websocket plays a whole match against one; a bot's turn as a task."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone
from channels.db import database_sync_to_async

from games import bots, services
from games import tasks
from games.tasks.bot_turns import play_turn
from games.dice import ScriptedDice, SeededDice
from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN
from games.models import Game, GameEvent, Match
from tests.consumers.conftest import open_socket, wait_for


def simple_decide(level, game_state, match_state=None):
    """A stand-in strategy: the first legal play; doubles sometimes, takes, accepts."""
    from games.engine import GameState

    state = GameState.from_dict(game_state)
    if state.phase == MOVE:
        plays = state.legal_plays()
        return {"action": "move", "moves": plays[-1].to_list()}
    if state.phase == TURN:
        return {"action": "double" if state.can_double(state.actor) and state.turn_number % 7 == 3 else "roll"}
    if state.phase == CUBE_OFFERED:
        return {"action": "take"}
    return {"action": "accept"}


def _shows(message, game_id, version):
    """Whether a socket message shows game ``game_id`` at ``version`` or later."""
    if message.get("t") == "snapshot":
        return message["d"]["game"] == game_id and message["v"] >= version
    return message.get("game") == game_id and (message.get("v") or 0) >= version


def human_action(state):
    if state.phase == TURN:
        return "roll", {}
    if state.phase == MOVE:
        return "move", {"moves": state.legal_plays()[0].to_list()}
    if state.phase == CUBE_OFFERED:
        return "take", {}
    assert state.phase == RESIGN_OFFERED
    return "resign_reject", {}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("strategy", ["stand-in", "real"])
async def test_a_human_on_a_websocket_plays_a_whole_match_against_a_house_bot(strategy, monkeypatch, settings):
    settings.GAMES_WS_FLOOD_LIMIT = 100000  # this human acts as fast as the test can
    if strategy == "stand-in":
        monkeypatch.setattr(bots, "decide", simple_decide)
    level = "random" if strategy == "real" else "beginner"

    def start():
        human = services.player_register(username="hugo", password="correct horse 9")
        with services.use_dice(ScriptedDice([(3,), (1,)])):  # the human (White) opens
            match = services.match_vs_bot(player=human, level=level, length=3)
        return human, match.pk, match.black_id

    human, match_id, bot_id = await database_sync_to_async(start)()
    first_game = await database_sync_to_async(lambda: Game.objects.get(match_id=match_id).pk)()
    sock, connected = await open_socket(f"/ws/games/{first_game}/", human)
    assert connected

    def situation():
        match = Match.objects.get(pk=match_id)
        game = Game.objects.filter(match_id=match_id).order_by("-number").first()
        return match.status, game.pk, game.version, game.game_state()

    actions = 0
    with services.use_dice(SeededDice("c3" * 32, 0)):
        for _ in range(2000):
            status, game_id, version, state = await database_sync_to_async(situation)()
            if status != Match.PLAYING:
                break
            # Tasks run inline in these tests: the bot has answered by the time our action returns.
            assert state.actor == "white", f"the house bot did not answer (phase {state.phase})"
            # Act on what the socket has shown, like a browser: it follows the match into
            # the next game only when the old game's game_end reaches it.
            await sock.until(lambda m: _shows(m, game_id, version)) if not any(
                _shows(m, game_id, version) for m in sock.received) else None
            kind, data = human_action(state)
            await sock.send(kind, data, v=version)
            actions += 1

            def moved_on(game_id=game_id, version=version):
                match = Match.objects.get(pk=match_id)
                game = Game.objects.filter(match_id=match_id).order_by("-number").first()
                if match.status != Match.PLAYING:
                    return True
                changed = game.pk != game_id or game.version != version
                return changed and game.game_state().actor == "white"

            if not await wait_for(moved_on, timeout=10):
                await sock.drain()
                raise AssertionError(f"no progress after {kind} v={version} game={game_id}: {[(m.get('t'), m.get('v'), m.get('game'), m.get('d') if m.get('t') == 'error' else None) for m in sock.received[-12:]]}")
        else:
            raise AssertionError("the match did not end")

    match = await database_sync_to_async(Match.objects.get)(pk=match_id)
    assert match.status == Match.FINISHED and match.winner_id in (human.pk, bot_id)
    assert max(match.white_score, match.black_score) >= 3
    bot_moves = await database_sync_to_async(
        lambda: GameEvent.objects.filter(game__match_id=match_id, actor_id=bot_id, type="move").count())()
    assert bot_moves > 10 and actions > 10
    # The human's socket saw the bot's moves and followed the match to its end.
    await sock.drain()
    seen = [m for m in sock.received if m.get("t") == "move" and m["d"].get("color") == "black"]
    assert seen, "no bot move reached the socket"
    assert not [m for m in sock.received if m.get("t") == "error"]
    assert any(m.get("t") == "game_end" and m["d"].get("matchOver") for m in sock.received)
    await sock.close()


def _bot_to_move(db_level="beginner", rolls=()):
    """A human's match against a house bot where the bot (Black) opens with 3-1 (``rolls``:
    the next rolls, used if the bot plays at once)."""
    human = services.player_register(username="hugo", password="correct horse 9")
    with services.use_dice(ScriptedDice([(1,), (3,), *rolls])):
        match = services.match_vs_bot(player=human, level=db_level, length=1)
    return human, match, Game.objects.get(match=match)


@pytest.mark.django_db(transaction=True)
def test_a_bots_turn_is_a_task_queued_after_the_commit(monkeypatch):
    """The service call returns with the bot still to act: its turn is a task for the workers,
    queued once per commit with the version it is for (captured here and run by hand)."""
    queued = []
    monkeypatch.setattr(tasks, "bot_turn", lambda game_id, version: queued.append((game_id, version)))
    monkeypatch.setattr(bots, "decide", simple_decide)
    human, match, game = _bot_to_move()
    state = game.game_state()
    assert state.actor == "black" and state.phase == MOVE  # returned before the bot played
    assert queued == [(game.pk, game.version)]  # one task for the whole commit
    with services.use_dice(ScriptedDice([(6, 5)])):
        assert play_turn(*queued.pop()) == "move"  # the worker's task: the bot plays
    game.refresh_from_db()
    assert game.game_state().actor == "white"
    assert GameEvent.objects.filter(game=game, type="move", actor=match.black).count() == 1
    assert play_turn(game.pk, game.version) is None  # the human's turn: a stray task does nothing


@pytest.mark.django_db(transaction=True)
def test_a_bot_out_of_time_plays_the_fallback(settings, monkeypatch):
    settings.GAMES_BOT_TIME_LIMIT = 0.01
    release = threading.Event()
    monkeypatch.setattr(tasks, "bot_turn", lambda game_id, version: None)  # drive the turn by hand
    monkeypatch.setattr(bots, "decide", lambda *args: release.wait(10) and {"action": "roll"})
    human, match, game = _bot_to_move()
    state = game.game_state()
    try:
        assert play_turn(game.pk, game.version) == "move"
    finally:
        release.set()
    game.refresh_from_db()
    assert game.game_state().last_play == state.legal_plays()[0].steps  # the first legal play


@pytest.mark.django_db(transaction=True)
def test_a_bad_or_failing_strategy_falls_back_and_a_stale_version_is_ignored(monkeypatch):
    calls = []

    def broken(level, game_state, match_state=None):
        calls.append(level)
        if len(calls) == 1:
            return {"action": "move", "moves": [{"from": 1, "to": 20}]}  # illegal: the fallback plays
        raise RuntimeError("strategy crashed")

    monkeypatch.setattr(bots, "decide", broken)
    human, match, game = _bot_to_move(rolls=[(6, 5)])
    game.refresh_from_db()
    assert calls == ["beginner"] and game.game_state().actor == "white"
    assert GameEvent.objects.filter(game=game, type="move", actor=match.black).count() == 1
    # The human plays; the bot's strategy now crashes: the fallback still answers.
    with services.use_dice(ScriptedDice([(6, 5), (2, 1)])):
        state = game.game_state()
        services.game_move(game_id=game.pk, player=human, moves=state.legal_plays()[0].to_list())
    game.refresh_from_db()
    assert game.game_state().actor == "white" and len(calls) == 2
    assert GameEvent.objects.filter(game=game, type="move", actor=match.black).count() == 2

    # Someone else plays the bot's turn while it thinks: its own submission is stale and ignored.
    def races(level, game_state, match_state=None):
        from django.db import connection

        from games.engine import GameState

        state = GameState.from_dict(game_state)
        play = state.legal_plays()[0].to_list()
        try:
            services.game_move(game_id=game.pk, player=match.black, moves=play)
        finally:
            connection.close()  # this thread's (a real strategy never queries): PostgreSQL's test database is dropped after
        return {"action": "move", "moves": play}

    monkeypatch.setattr(bots, "decide", races)
    with services.use_dice(ScriptedDice([(4, 3), (5, 2), (6, 1), (3, 3)])):
        state = game.game_state()
        services.game_move(game_id=game.pk, player=human, moves=state.legal_plays()[0].to_list())
    game.refresh_from_db()
    assert game.game_state().actor == "white"
    assert GameEvent.objects.filter(game=game, type="move", actor=match.black).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_bot_whose_opponent_resigns_while_it_thinks_does_nothing_and_is_not_retried(monkeypatch):
    """The soak found it: an agent resigned while the bot decided; the task raised game_over
    and Huey retried it. A turn that ended meanwhile is nothing to do."""
    queued = []
    monkeypatch.setattr(tasks, "bot_turn", lambda game_id, version: queued.append((game_id, version)))
    human, match, game = _bot_to_move()

    def resigns_meanwhile(level, game_state, match_state=None):
        from django.db import connection

        try:
            services.game_resign(game_id=game.pk, player=human)
        finally:
            connection.close()  # this thread's connection (see above)
        return simple_decide(level, game_state, match_state)

    monkeypatch.setattr(bots, "decide", resigns_meanwhile)
    with services.use_dice(ScriptedDice([(6, 5)])):
        assert play_turn(*queued.pop()) is None  # no exception: nothing for Huey to retry
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    assert not GameEvent.objects.filter(game=game, type="move", actor=match.black).exists()


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_lost_with_its_worker_is_queued_again(monkeypatch):
    lost = []
    monkeypatch.setattr(tasks, "bot_turn", lambda game_id, version: lost.append((game_id, version)))
    monkeypatch.setattr(bots, "decide", simple_decide)
    human = services.player_register(username="rita", password="correct horse 8")
    with services.use_dice(ScriptedDice([(1,), (3,)])):  # the bot (Black) opens: its turn at once
        match = services.match_vs_bot(player=human, level="beginner", length=3)
    game = Game.objects.get(match=match)
    assert len(lost) == 1 and game.game_state().actor == "black"  # queued, then lost (a killed worker)
    later = timezone.now() + timedelta(seconds=30)
    assert services.bots_waiting(now=timezone.now()) == []  # too recent to call it lost
    assert services.bots_waiting(now=later) == [(game.pk, game.version, "beginner")]
    monkeypatch.setattr(tasks, "bot_turn", lambda game_id, version: play_turn(game_id, version))
    with services.use_dice(ScriptedDice([(6, 5)])):
        assert tasks._resume_bots() == 0  # its last event is recent: not resumed yet
        waiting = services.bots_waiting
        monkeypatch.setattr(services, "bots_waiting", lambda idle: waiting(idle=idle, now=later))
        assert tasks._resume_bots() == 1
    game.refresh_from_db()
    assert game.events.filter(type="move", actor_id=match.black_id).exists()
    assert game.game_state().actor == "white"
    assert waiting(now=later + timedelta(seconds=30)) == []  # the human's turn

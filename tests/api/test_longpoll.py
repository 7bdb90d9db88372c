"""Long-polling GET /api/matches/<id>?wait=&since=: woken through the channel layer."""

import asyncio

import pytest
from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.test import AsyncClient

from games import services
from games.dice import ScriptedDice
from games.api import views as api_views
from games.events import add_listener, match_group, remove_listener
from games.realtime.bridge import broadcast
from games.models import Game, Player

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def async_middleware_only(settings):
    """Only the async-capable middleware, so that a waiting long-poll provably holds no thread:
    the services below run on the one shared sync thread, and would wait for the whole poll if
    the poll held it. (A sync-only middleware in the stack makes Django run the async view under
    a thread of its own; ``test_long_poll_under_the_full_middleware_stack`` covers that stack.)"""
    from django.utils.module_loading import import_string

    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if getattr(import_string(m), "async_capable", False)]

FULL_MIDDLEWARE = list(django_settings.MIDDLEWARE)
LEGAL_31 = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]


@database_sync_to_async
def setup_match(length=3):
    """Two agents in a started match; White (the first) opens with 3-1."""
    (a, key_a), (b, key_b) = (services.agent_register(name=n) for n in ("poll-white", "poll-black"))
    services.queue_join(player=a.player, length=length)
    with services.use_dice(ScriptedDice([(3,), (1,)])):
        match_id = services.queue_join(player=b.player, length=length)["matchId"]
    game = Game.objects.get(match_id=match_id)
    return match_id, game.pk, (a.player, key_a), (b.player, key_b)


@database_sync_to_async
def act(fn, **kwargs):
    return fn(**kwargs)


async def subscribed(group, timeout=10):
    """Wait (by polling the layer's state, not by a fixed sleep) until someone listens on ``group``
    (so the test's write never races the poll's own database reads: SQLite's shared-cache test
    database refuses concurrent access with "table is locked" instead of waiting)."""
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        # In the group, and already receiving (past its re-read after subscribing): the
        # in-memory layer creates a channel's queue when someone starts receiving on it.
        if any(name in layer.channels for name in layer.groups.get(group, {})):
            return True
        await asyncio.sleep(0.005)
    return False


def get(client, match_id, key, **params):
    return client.get(f"/api/matches/{match_id}", params, headers={"Authorization": f"Bearer {key}"})


@pytest.fixture
def layer_only(settings):
    """The poll reads the database only every 60 s: what returns it sooner is the layer."""
    settings.GAMES_LONG_POLL_RECHECK = 60.0


async def test_long_poll_returns_when_the_opponent_moves(layer_only):
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match()
    client = AsyncClient()
    first = (await get(client, match_id, key_b)).json()
    assert not first["isYourTurn"] and first["currentPlayer"] == white.pk
    since = first["version"]

    # Black waits (up to 30 s) for anything newer than what it has seen.
    poll = asyncio.create_task(get(client, match_id, key_b, wait=30, since=since))
    assert await subscribed(match_group(match_id)), "the long-poll never subscribed to the game's group"
    assert not poll.done()

    # White moves through the services (another thread), as a websocket or another agent would.
    await act(services.game_move, game_id=game_id, player=white, moves=LEGAL_31)
    # A generous bound, far below the 30 s wait: only a wake-up through the layer returns it.
    response = await asyncio.wait_for(poll, timeout=15)
    assert response.status_code == 200
    view = response.json()
    current = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).version)()
    assert view["version"] == current > since
    assert view["lastTurn"] == LEGAL_31 and view["lastTurnBy"] == white.pk
    assert view["isYourTurn"] and view["currentPlayer"] == black.pk
    assert not get_channel_layer().groups.get(match_group(match_id))  # unsubscribed afterwards


async def test_long_poll_returns_at_once_when_already_newer_and_unchanged_after_wait():
    match_id, game_id, (white, key_w), _ = await setup_match()
    client = AsyncClient()
    view = (await get(client, match_id, key_w)).json()
    # since below the version: at once, nothing to wait for
    response = await asyncio.wait_for(get(client, match_id, key_w, wait=30, since=view["version"] - 1), 15)
    assert response.json()["version"] == view["version"]
    # nothing happens: after wait=1 the unchanged view
    response = await get(client, match_id, key_w, wait=1, since=view["version"])
    assert response.status_code == 200 and response.json() == view
    assert not get_channel_layer().groups.get(match_group(match_id))


async def test_long_poll_follows_the_match_into_its_next_game(layer_only):
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match(length=5)
    client = AsyncClient()
    first = (await get(client, match_id, key_b)).json()
    assert first["gameNumber"] == 1
    poll = asyncio.create_task(get(client, match_id, key_b, wait=30, since=first["version"]))
    assert await subscribed(match_group(match_id))
    # White resigns game 1 from the start: a backgammon, 3 points of 5, so game 2 starts.
    await act(services.game_resign, game_id=game_id, player=white)
    view = (await asyncio.wait_for(poll, timeout=15)).json()
    assert view["gameNumber"] == 2 and not view["matchOver"]
    assert view["score"] == {"white": 0, "black": 3}
    assert view["version"] > first["version"]
    assert view["whiteOff"] == view["blackOff"] == 0 and view["result"] is None
    # The version keeps growing across games: polling from it waits on game 2's group.
    game2 = await database_sync_to_async(lambda: Game.objects.get(match_id=match_id, number=2))()
    assert view["gameVersion"] == game2.version
    poll = asyncio.create_task(get(client, match_id, key_b, wait=30, since=view["version"]))
    assert await subscribed(match_group(match_id))
    state = await database_sync_to_async(game2.game_state)()
    mover = white if state.actor == "white" else black
    await act(services.game_resign, game_id=game2.pk, player=mover)
    later = (await asyncio.wait_for(poll, timeout=15)).json()
    assert later["version"] > view["version"]


async def test_long_poll_returns_even_when_the_layer_loses_the_message(settings):
    """The channel layer delivers at most once: with every message lost, the poll still
    returns, from its own read of the database (every GAMES_LONG_POLL_RECHECK seconds)."""
    settings.GAMES_LONG_POLL_RECHECK = 0.05
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match()
    client = AsyncClient()
    first = (await get(client, match_id, key_b)).json()
    poll = asyncio.create_task(get(client, match_id, key_b, wait=30, since=first["version"]))
    assert await subscribed(match_group(match_id))
    remove_listener(broadcast)  # nothing reaches the layer from now on
    try:
        await act(services.game_move, game_id=game_id, player=white, moves=LEGAL_31)
        view = (await asyncio.wait_for(poll, timeout=15)).json()
    finally:
        add_listener(broadcast)
    assert view["version"] > first["version"] and view["isYourTurn"]


async def test_long_poll_refusals():
    match_id, game_id, (white, key_w), _ = await setup_match()
    client = AsyncClient()
    assert (await get(client, match_id, "bgk_wrong", wait=1, since=0)).status_code == 401
    other, key_o = await database_sync_to_async(services.agent_register)(name="outsider")
    response = await get(client, match_id, key_o, wait=5, since=0)
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_your_match"
    response = await get(client, 99999, key_w, wait=5, since=0)
    assert response.status_code == 404
    assert await database_sync_to_async(Player.objects.count)() == 3


async def test_long_poll_under_the_full_middleware_stack(settings):
    """The site's real middleware; each request in its own thread context, as under Daphne."""
    settings.MIDDLEWARE = FULL_MIDDLEWARE
    assert "games.auth.SuspendedPlayerMiddleware" in FULL_MIDDLEWARE
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match()
    client = AsyncClient()
    since = (await get(client, match_id, key_b)).json()["version"]

    async def poll():
        async with ThreadSensitiveContext():
            return await get(client, match_id, key_b, wait=30, since=since)

    task = asyncio.create_task(poll())
    assert await subscribed(match_group(match_id))
    await act(services.game_move, game_id=game_id, player=white, moves=LEGAL_31)
    view = (await asyncio.wait_for(task, timeout=15)).json()
    assert view["version"] > since and view["lastTurn"] == LEGAL_31


def in_another_thread(fn, **kwargs):
    """Run ``fn`` (a service: the worker's move, say) to its commit in a thread of its own, now."""
    import threading

    failure = []

    def run():
        try:
            fn(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


async def test_a_change_between_the_polls_read_and_its_wait_wakes_it(layer_only, monkeypatch):
    """The race of a long-poll: the opponent's move commits after the poll has read the version
    and before it waits. The poll must still be woken by it (here the database is read again
    only after 60 s, so only a subscription made before the read can wake it)."""
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match()
    client = AsyncClient()
    since = (await get(client, match_id, key_b)).json()["version"]
    reads = []
    original = api_views._version_now

    def read_then_change(mid):
        version = original(mid)
        if not reads:  # the poll's first read: the move lands right behind it
            in_another_thread(services.game_move, game_id=game_id, player=white, moves=LEGAL_31)
        reads.append(version)
        return version

    monkeypatch.setattr(api_views, "_version_now", read_then_change)
    response = await asyncio.wait_for(get(client, match_id, key_b, wait=30, since=since), timeout=15)
    view = response.json()
    assert reads[0] == since  # the change came after the read
    assert view["version"] > since and view["lastTurn"] == LEGAL_31 and view["isYourTurn"]


async def test_the_view_is_one_read_when_the_match_ends_while_it_is_read(monkeypatch):
    """A view read while the last game's result commits must not mix the two: the new version
    with the old status ("the match is still on") left agents waiting out their whole poll
    for a change that never came. The match's status, score and the game's version are read
    in one statement."""
    match_id, game_id, (white, key_w), (black, key_b) = await setup_match(length=1)
    client = AsyncClient()
    before = (await get(client, match_id, key_b)).json()
    assert not before["matchOver"]
    original = api_views.load_match
    loads = []

    def load_then_finish(mid, player=None):
        match = original(mid, player)
        if not loads:  # the match row is read: now the last game ends (White resigns)
            in_another_thread(services.game_resign, game_id=game_id, player=white)
        loads.append(match.status)
        return match

    monkeypatch.setattr(api_views, "load_match", load_then_finish)
    view = (await get(client, match_id, key_b)).json()
    assert loads[0] == "playing"  # the match was read before the change
    assert view["version"] > before["version"]
    assert view["matchOver"] and view["matchStatus"] == "finished" and view["winner"] == black.pk
    assert view["score"]["black"] >= 1

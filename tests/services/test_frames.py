"""Each viewer's frames: built once per batch as text, the legal plays spliced in for the
side that must play them (games.events.frame, games.realtime.bridge.views)."""

import json

import pytest

from games.selectors import games as selectors
from games import services
from games.dice import ScriptedDice
from games.events import add_listener, frame, remove_listener
from games.realtime.bridge import ANYONE, views

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(django_capture_on_commit_callbacks):
    """``published(do)``: call ``do()`` and return the events its commit published."""

    def run(do) -> list:
        seen = []
        add_listener(seen.append)
        try:
            with django_capture_on_commit_callbacks(execute=True):
                do()
        finally:
            remove_listener(seen.append)
        return [env for batch in seen for env in batch.events]

    return run


def white_moves(t):
    t.do("move", "white", moves=[{"from": 8, "to": 5}, {"from": 6, "to": 5}])


def roll(t, color, dice):
    with services.use_dice(ScriptedDice([dice])):
        t.do("roll", color)


def test_frames_are_compact_json_of_the_event_and_its_state(make_table, published):
    t = make_table(length=3, opening=(3, 1))
    events = published(lambda: white_moves(t)) + published(lambda: roll(t, "black", (6, 6)))
    assert events[-1].t == "roll" and events[-1].legal_for == "black"
    for env in events:
        for viewer in ("white", "black", None):
            text = frame(env, viewer)
            assert text == json.dumps(json.loads(text), separators=(",", ":"))
            parsed = json.loads(text)
            assert {k: parsed[k] for k in ("t", "v", "d", "game")} == {"t": env.t, "v": env.v, "d": env.d,
                                                                       "game": env.game}
            assert parsed.get("state") == env.state
    on_roll = json.loads(frame(events[-1], "black"))
    assert on_roll["legalMoves"] == selectors.game_snapshot(t.game, "black")["legalMoves"]
    assert len(on_roll["legalMoves"]) > 1
    assert all("legalMoves" not in json.loads(frame(events[-1], viewer)) for viewer in ("white", None))


def test_views_give_the_side_on_roll_its_plays_and_everyone_else_the_same_text(make_table, published):
    t = make_table(length=3, opening=(3, 1))
    assert set(views(published(lambda: white_moves(t)))) == {ANYONE}  # Black may double: nothing to play yet
    events = published(lambda: roll(t, "black", (5, 2)))
    out = views(events)
    assert set(out) == {ANYONE, "black"}
    assert out[ANYONE] == [frame(env, None) for env in events]
    assert out["black"] == [frame(env, "black") for env in events]
    assert out["black"][:-1] == out[ANYONE][:-1]  # only the last event carries the plays
    assert "legalMoves" in json.loads(out["black"][-1]) and "legalMoves" not in json.loads(out[ANYONE][-1])


def test_a_catch_up_ends_with_the_plays_for_the_side_on_roll_only(make_table):
    t = make_table(length=3, opening=(3, 1))
    black = [json.loads(text) for text in selectors.catch_up(t.game, 0, "black")]
    white = [json.loads(text) for text in selectors.catch_up(t.game, 0, "white")]
    assert [f["v"] for f in white] == list(range(1, t.game.version + 1))
    assert "legalMoves" not in black[-1]
    assert white[-1]["legalMoves"] == selectors.game_snapshot(t.game, "white")["legalMoves"]
    assert white[:-1] == black[:-1]

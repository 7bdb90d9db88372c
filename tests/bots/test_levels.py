"""Every level returns legal plays, deterministically; LEVELS is ordered and complete."""

import pytest

from games.bots import LEVELS, choose_play, get_bot, get_level
from games.analysis import sage
from games.engine import Position, format_play
from games.engine.moves import check_play, legal_plays

# bgsage 2-ply is too slow for 2000 positions inside the test budget;
# bench/bot_strength.py plays thousands of its decisions through the engine's check.
SUBSET = {"world_class": 60, "expert": 500}  # the slow levels on an even sample of the cases


def assert_legal(position, dice, play):
    results = {p.result for p in legal_plays(position, dice)}
    assert play.result in results
    assert check_play(position, dice, list(play.steps)).result == play.result


def test_levels_are_ordered_and_described():
    assert len(LEVELS) >= 6
    assert [lv.rank for lv in LEVELS] == sorted(lv.rank for lv in LEVELS)
    assert len({lv.name for lv in LEVELS}) == len(LEVELS)
    assert all(lv.description for lv in LEVELS)
    assert LEVELS[0].name == "random" and LEVELS[-1].name == "world_class"
    with pytest.raises(ValueError):
        get_level("grandmaster")


@pytest.mark.slow
@pytest.mark.parametrize("level", [lv.name for lv in LEVELS])
def test_level_plays_only_legal_moves(level, all_cases, legal_results):
    limit = SUBSET.get(level)
    step = 1 if limit is None else len(all_cases) // limit
    indexes = range(0, len(all_cases), step)
    if limit is None:
        assert len(indexes) >= 2000
    for i in indexes:
        position, dice = all_cases[i]
        assert choose_play(level, position, dice).result in legal_results[i]
    # and the engine's own checker agrees on a sample
    for i in indexes[::25]:
        position, dice = all_cases[i]
        assert_legal(position, dice, choose_play(level, position, dice))


@pytest.mark.parametrize("level", [lv.name for lv in LEVELS])
def test_same_input_same_output(level, all_cases):
    step = 400 if level in SUBSET else 100
    for position, dice in all_cases[::step]:
        first = choose_play(level, position, dice)
        second = get_bot(level).choose_play(position, dice)
        assert first.result == second.result


def test_random_level_varies_and_is_seeded_by_position_and_dice():
    pos = Position.initial()
    bot = get_bot("random")
    picks = {format_play(pos, bot.choose_play(pos, (6, 5), salt=str(i))) for i in range(40)}
    assert len(picks) > 2  # different salts give different (uniform) choices
    assert bot.choose_play(pos, (6, 5)).result == bot.choose_play(pos, (6, 5)).result


@pytest.mark.parametrize("level", ["advanced", "expert", "world_class"])
@pytest.mark.parametrize("dice,expected", [((3, 1), "8/5 6/5"), ((6, 1), "13/7 8/7")])
def test_strong_levels_make_points_in_the_opening(level, dice, expected):
    if not sage.available():
        pytest.skip("bgsage not importable on this CPU (the fallback is tested separately)")
    for turn in ("white", "black"):
        pos = Position.initial(turn)
        assert format_play(pos, choose_play(level, pos, dice)) == expected


def test_noise_free_sage_choice_is_mirror_symmetric(all_cases):
    if not sage.available():
        pytest.skip("bgsage not importable on this CPU")
    for position, dice in all_cases[::40]:
        plays = legal_plays(position, dice)
        eqs = sage.play_equities(position, dice, plays, 0)
        if len(plays) < 2 or sorted(eqs)[-1] - sorted(eqs)[-2] < 1e-6:
            continue
        mirrored = position.mirror()
        mplays = legal_plays(mirrored, dice)
        meqs = sage.play_equities(mirrored, dice, mplays, 0)
        best = plays[max(range(len(plays)), key=eqs.__getitem__)].result
        mbest = mplays[max(range(len(mplays)), key=meqs.__getitem__)].result
        assert mbest == best.mirror()


@pytest.mark.skipif(not sage.available(), reason="bgsage is not importable on this CPU")
def test_world_class_checker_play_is_cubeless_2ply_and_expert_cubeful(monkeypatch):
    """2-ply cubeful checker play takes seconds; world_class plays cubeless (its measured
    strength), expert keeps the cube in view."""
    from games.engine import GameRules, GameState

    calls = []
    real = sage.play_equities

    def spy(position, dice, plays, ply, cube=None, cubeful=True):
        calls.append((ply, cubeful))
        return real(position, dice, plays, ply, cube, cubeful)

    monkeypatch.setattr(sage, "play_equities", spy)
    state = GameState.new(GameRules(cube=True)).opening_roll(3, 1)
    get_bot("world_class").choose_play(state)
    get_bot("expert").choose_play(state)
    assert calls == [(2, False), (1, True)]

"""A roll followed by a resignation, read back by GNU Backgammon 1.07.

gnubg's importer plays a lone ``dice:`` cell itself when those dice have at most one
legal play. Written as it was rolled, a forced roll right before a resignation was
played on import; when that play bore off the last checker gnubg scored a bear-off
instead of the resignation, and a different match. The export now leaves such a roll
out (the game is resigned before it), and gnubg reads the same results, the same
score and the same end Position ID and Match ID as ours.
"""
from __future__ import annotations

from games.engine import MatchRules
from games.engine.moves import legal_plays
from games.engine.replay import replay_steps
from games.interchange.gnubg_run import gnubg_read
from games.interchange.ids import events_position_ids
from games.interchange.mat_write import write_mat
from tests.interchange.helpers import play_random_match
from tests.support import require_gnubg

# Seeded random 3-point matches where a side rolled, had one legal play, which would have
# borne off its last checker, and the game was resigned instead (a backgammon in 176).
CASES = (176, 190)


def _forced_rolls_before_resignation(games):
    """``[(game number, the forced play ends the game)]`` of rolls never played because the
    game was resigned, whose dice had exactly one legal play."""
    found = []
    for number, events in enumerate(games, start=1):
        steps = list(replay_steps(events))
        for i, (event, state) in enumerate(steps[:-1]):
            rest = [e["type"] for e, _ in steps[i + 1:]]
            if event["type"] != "roll" or "move" in rest or rest[0] not in ("resign_offer", "resign"):
                continue
            plays = legal_plays(state.position, state.dice)
            if len(plays) == 1 and plays[0].steps:
                found.append((number, state.move(state.actor, plays[0].steps).is_over))
    return found


def test_the_cases_have_a_forced_roll_that_would_bear_off_the_last_checker():
    for seed in CASES:
        _match, games = play_random_match(seed, MatchRules(length=3), max_games=20)
        assert any(ends for _n, ends in _forced_rolls_before_resignation(games)), seed


def test_a_forced_roll_before_a_resignation_is_not_written():
    _match, games = play_random_match(176, MatchRules(length=3), max_games=20)
    (number, _ends), = _forced_rolls_before_resignation(games)
    roll = next(e for e in reversed(games[number - 1]) if e["type"] == "roll")["payload"]
    assert roll["color"] == "white" and roll["dice"] == [5, 6]  # White, the right column
    text = write_mat(length=3, black_name="b", white_name="w", games=games)
    game_text = text.split(f" Game {number}\n")[1]
    numbered = [line for line in game_text.splitlines() if line[:5].strip().endswith(")")]
    assert numbered[-1][:33].strip() == "35) 56: 4/off(2)" and numbered[-1][33:].strip() == "", game_text
    assert "Wins 3 points" in game_text


def test_gnubg_reads_the_same_games_when_a_forced_roll_preceded_a_resignation():
    gnubg = require_gnubg()
    played = [play_random_match(seed, MatchRules(length=3), max_games=20) for seed in CASES]
    texts = [(write_mat(length=3, black_name="b", white_name="w", games=games), False) for _m, games in played]
    read = gnubg_read(gnubg, texts)
    for (match, games), (text, _j), theirs in zip(played, texts, read):
        assert len(theirs["games"]) == len(games), text
        for number, (events, gnubg_game) in enumerate(zip(games, theirs["games"]), start=1):
            end = events[-1]["payload"]
            assert (gnubg_game["winner"], gnubg_game["points"]) == (end["winner"], end["points"]), (number, text)
            ours = events_position_ids(events, length=3)[-1]
            assert (gnubg_game["positionId"], gnubg_game["matchId"]) == (ours["positionId"], ours["matchId"]), number
        assert theirs["score"] == match.score, text

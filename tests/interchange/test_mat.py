"""The .mat writer and reader (games.interchange), without a database or gnubg.

Round trips: random matches played through the engine are written and read back, and
the events must be the same (up to what the format cannot carry, listed in
``normalise``). Then the reader's refusals: each has a stable code and a line number.
"""
from __future__ import annotations

import re

import pytest

from games.engine import MatchRules
from games.engine.moves import legal_plays
from games.interchange.mat_read import MatImportError, import_mat, parse_mat
from games.interchange.mat_write import NotExportable, write_mat
from games.engine.replay import replay_events, replay_steps

from tests.interchange.helpers import play_random_match


def normalise(events):
    """What a .mat file keeps of a game's events.

    Dropped: tied opening rolls, dice counters (the file has no dice source), resignation
    offers and answers (only the accepted one's points are written); the result kind of a
    resignation (Jacoby can make a resigned gammon worth one point); and a roll with at
    most one legal play right before a resignation (the writer leaves it out: gnubg, and
    the reader, would play it).
    """
    out = []
    steps = list(replay_steps(events))
    for i, (event, _state) in enumerate(steps):
        kind, data = event["type"], dict(event["payload"])
        if kind == "opening_roll":
            if data["first"] is None:
                continue
            data.pop("counters")
        elif kind == "roll":
            data.pop("counter")
            rest = [e["type"] for e, _ in steps[i + 1:]]
            resigned = rest[:1] in (["resign_offer"], ["resign"]) and "move" not in rest
            if resigned and len(legal_plays(_state.position, _state.dice)) <= 1:
                continue
        elif kind in ("resign_offer", "resign_accept", "resign_reject"):
            continue
        elif kind == "game_end" and data["reason"] == "resign":
            data.pop("kind")
        out.append((kind, data))
    return out


CASES = [(seed, length) for seed in range(1, 7) for length in (1, 3, 5, 7)] + [(seed, 0) for seed in range(1, 5)]


@pytest.mark.parametrize("seed,length", CASES)
def test_round_trip(seed, length):
    rules = MatchRules(length=length) if length else MatchRules(length=0, jacoby=seed % 2 == 0)
    match, games = play_random_match(seed, rules, max_games=12)
    text = write_mat(length=length, black_name="bob smith", white_name="alice", games=games)
    imported = import_mat(text, jacoby=rules.jacoby if not length else None)
    assert imported.black_name == "bob_smith" and imported.white_name == "alice"
    assert imported.rules == rules
    assert len(imported.games) == len(games)
    for ours, theirs in zip(games, imported.games):
        assert normalise(theirs) == normalise(ours)
        assert replay_events(theirs).result == replay_events(ours).result or ours[-1]["payload"]["reason"] == "resign"
    assert imported.score == match.score
    assert imported.winner == match.winner


def test_the_round_trip_cases_cover_every_ending():
    reasons = set()
    for seed, length in CASES:
        rules = MatchRules(length=length) if length else MatchRules(length=0)
        _match, games = play_random_match(seed, rules, max_games=12)
        reasons |= {g[-1]["payload"]["reason"] for g in games}
        types = {e["type"] for g in games for e in g}
        assert "move" in types
    assert reasons == {"bearoff", "drop", "resign"}


def test_every_numbered_line_reaches_the_right_column():
    """gnubg 1.07 misreads lines shorter than its column break (see mat_write)."""
    _match, games = play_random_match(3, MatchRules(length=7), max_games=12)
    text = write_mat(length=7, black_name="b", white_name="w", games=games)
    numbered = [line for line in text.splitlines() if line[:4].strip().endswith(")")]
    assert numbered and all(len(line) >= 33 for line in numbered)
    assert any(line.rstrip().endswith(("Drops", "Takes")) for line in numbered)


def test_import_produces_the_service_event_shape():
    text = """; [Site "somewhere"]
 3 point match

 Game 1
 bob : 0                        alice : 0
  1)                             31: 8/5 6/5
  2) 62: 24/18 13/11              Doubles => 2
  3)  Takes                       52: 13/11 13/8
  4)  Doubles => 4                Drops
      Wins 2 points
"""
    m = import_mat(text)
    events = m.games[0]
    assert [e["type"] for e in events] == [
        "game_start", "opening_roll", "move", "roll", "move", "double", "take", "roll", "move", "double",
        "drop", "game_end"]
    start = events[0]["payload"]
    assert set(start) == {"number", "rules", "position", "diceCommitment", "matchLength", "score", "crawfordGame"}
    assert events[1]["payload"] == {"white": 3, "black": 1, "counters": [0, 1], "first": "white", "cubeValue": 1}
    assert events[2]["payload"] == {"color": "white", "moves": [{"from": 8, "to": 5}, {"from": 6, "to": 5}],
                                    "dice": [3, 1], "notation": "8/5 6/5"}
    assert events[3]["payload"] == {"color": "black", "dice": [6, 2], "counter": 2, "auto": False}
    assert events[7]["payload"]["auto"] is True  # the taker owns the cube: White's roll is automatic
    end = events[-1]["payload"]
    assert (end["winner"], end["points"], end["reason"], end["score"]) == ("black", 2, "drop", [0, 2])
    assert m.score == (0, 2) and m.winner is None and m.comments == ['[Site "somewhere"]']


def test_other_programs_spellings():
    """XG and Jellyfish write 25/ or Bar/ for the bar, /0 or /Off for bearing off,
    'Cannot Move' for a dance; CRLF line ends and a byte-order mark are common too."""
    _match, games = play_random_match(4, MatchRules(length=7), max_games=12)
    text = write_mat(length=7, black_name="b", white_name="w", games=games)
    plain = import_mat(text)
    assert "bar/" in text and "/off" in text and re.search(r"\d\d:\s*$", text, re.M)
    other = text.replace("bar/", "25/", 3).replace("bar/", "Bar/").replace("/off", "/0", 3).replace("/off", "/Off")
    other = re.sub(r"(\d\d):(\s*)$", r"\1: Cannot Move\2", other, flags=re.M)
    other = "\ufeff" + other.replace("\n", "\r\n")
    assert import_mat(other).games == plain.games


def test_resignation_after_a_roll_and_gnubgs_one_line_drop():
    text = """ 0 point match

 Game 1
 b : 0                          w : 0
  1) 52: 13/11 13/8               Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 b : 0                          w : 1
  1)                             31: 8/5 6/5
  2) 52:
      Wins 1 point
"""
    m = import_mat(text)
    assert m.score == (1, 1)
    last = m.games[1]
    assert [e["type"] for e in last[-4:]] == ["roll", "resign_offer", "resign_accept", "game_end"]
    assert last[-3]["payload"] == {"color": "white", "level": 1}


def _error(text, **kwargs):
    with pytest.raises(MatImportError) as exc:
        import_mat(text, **kwargs)
    return exc.value


HEAD = " 5 point match\n\n Game 1\n b : 0                          w : 0\n"


@pytest.mark.parametrize("text,code,line", [
    ("hello\n", "not_a_mat", 1),
    ("", "not_a_mat", None),
    (" 5 point match\n\n Game 1\n  1) 31: 8/5 6/5\n", "bad_game", 4),
    (HEAD + "  1) 31: 8/5 6/5   xyzzy\n", "bad_cell", 5),
    (HEAD + "  1)                             31: 8/5 6//5\n", "bad_move", 5),
    (HEAD + "  1)                             31: 24/18\n", "illegal_move", 5),
    (HEAD + "  1)                             33: 13/10(2)\n", "bad_opening", 5),
    (HEAD + "  1)                             31: 8/5 6/5\n  2)  Doubles => 4\n", "illegal_action", 6),
    (HEAD + "  1)                             31: 8/5 6/5\n  2)  Takes\n", "illegal_action", 6),
    (HEAD + "  1)                             31: 8/5 6/5\n  2) 52:                      21: 6/4 6/5\n",
     "missing_move", 6),
    (HEAD + "  1)                             31: 8/5 6/5\n  2)  Doubles => 2                Drops\n"
     "                                  Wins 1 point\n", "result_mismatch", 7),
    (HEAD + "  1)                             31: 8/5 6/5\n  2)  Doubles => 2                Drops\n"
     "      Wins 1 point\n  3) 31: 8/5 6/5\n", "after_end", 8),
    (HEAD + "  1)                             31: 8/5 6/5\n\n Game 2\n b : 0          w : 0\n"
     "  1)                             31: 8/5 6/5\n", "unfinished_game", 3),
    (HEAD + "  1)                             31: 8/5 6/5\n  2)  Doubles => 2                Drops\n"
     "      Wins 1 point\n\n Game 2\n b : 0          w : 0\n  1) 31: 8/5 6/5\n", "score_mismatch", 10),
    (HEAD + "  1)                             31: 8/5 6/5\n  what is this\n", "bad_line", 6),
    (" 1 point match\n\n Game 1\n b : 0    w : 0\n  1)                             31: 8/5 6/5\n"
     "  2)  Doubles => 2\n", "illegal_action", 6),
])
def test_refusals_have_a_code_and_a_line(text, code, line):
    err = _error(text)
    assert (err.code, err.line) == (code, line), err
    assert err.message and err.as_dict() == {"code": code, "message": err.message, "line": line}


def test_no_double_in_the_crawford_game():
    # Black wins the first game 4 points (a 2-cube gammon resigned), 4-0 in a 5-point match:
    # game 2 is the Crawford game.
    text = HEAD + ("  1)                             31: 8/5 6/5\n  2)  Doubles => 2                Takes\n"
                   "      Wins 4 points\n\n Game 2\n b : 4          w : 0\n"
                   "  1)                             31: 8/5 6/5\n  2)  Doubles => 2\n")
    err = _error(text)
    assert (err.code, err.line) == ("illegal_action", 12)
    assert "crawford" in err.message.lower()


def test_too_large():
    assert _error(HEAD + "x" * 100, max_bytes=50).code == "too_large"


def test_money_jacoby_is_found_from_the_results():
    """A gammon borne off with a centred cube: 1 point under Jacoby, 2 without."""
    _match, games = play_random_match(5, MatchRules(length=0, jacoby=True), max_games=40)
    text = write_mat(length=0, black_name="b", white_name="w", games=games)
    bearoff_gammons = [g for g in games if g[-1]["payload"]["reason"] == "bearoff"
                       and g[-1]["payload"]["kind"] != "single" and g[-1]["payload"]["cubeValue"] == 1]
    m = import_mat(text)
    if bearoff_gammons:
        assert m.rules.jacoby is True
    assert m.score == _match.score


def test_parse_keeps_lines():
    parsed = parse_mat(HEAD + "  1)                             31: 8/5 6/5\n")
    cell = parsed.games[0].cells[0]
    assert (cell.line, cell.player, cell.kind, cell.dice, cell.text) == (5, 1, "roll", (3, 1), "8/5 6/5")


# -- the writer's refusals ---------------------------------------------------------------
def test_writer_refuses_what_the_format_cannot_carry():
    _m, games = play_random_match(2, MatchRules(length=0, beaver=True, raccoon=True), max_games=40)
    assert any(e["type"] == "beaver" for g in games for e in g)
    with pytest.raises(NotExportable, match="beaver") as exc:
        write_mat(length=0, black_name="b", white_name="w", games=games)
    assert exc.value.code == "not_exportable"
    game = [dict(e) for e in games[0]]
    game[-1] = {"type": "game_end", "payload": {**game[-1]["payload"], "kind": "double_backgammon", "points": 4}}
    with pytest.raises(NotExportable, match="double backgammon"):
        write_mat(length=0, black_name="b", white_name="w", games=[game])


def test_a_file_with_a_beaver_imports():
    """Other programs write beavers; the import turns them into beaver events (money only)."""
    text = """ 0 point match

 Game 1
 b : 0                          w : 0
  1)                             31: 8/5 6/5
  2)  Doubles => 2                Beavers => 4
  3) 52: 13/11 13/8               Doubles => 8
  4)  Drops
                                  Wins 4 points
"""
    m = import_mat(text)
    assert m.rules.beaver and not m.rules.raccoon and m.score == (4, 0)
    types = [e["type"] for e in m.games[0]]
    assert types[3:6] == ["double", "beaver", "roll"] and types[-3:] == ["double", "drop", "game_end"]
    assert m.games[0][4]["payload"] == {"color": "white", "cubeValue": 4}

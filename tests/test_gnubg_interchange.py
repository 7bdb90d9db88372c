"""Exported matches read back by GNU Backgammon 1.07, game by game.

Matches are played through the real services with seeded dice and a seeded random
policy that doubles, takes, drops, offers resignations (some accepted, some rejected),
concedes with a plain resign and leaves a money session (a forfeit). Every match is
exported, imported by gnubg (one gnubg process for all of them), and for every game
gnubg's winner and points, the match score, and the Position ID / Match ID gnubg shows
at the game's end must equal ours. Also: our own importer reads the export back to the
same events, and a session with a beaver is refused (the format cannot carry it).
"""
from __future__ import annotations

import random

import pytest

from games import services
from games.dice import SeededDice
from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN
from games.selectors.export import NotExportable, game_position_ids, match_to_mat
from games.interchange.gnubg_run import gnubg_read
from games.interchange.mat_read import import_mat
from games.models import Game, GameEvent, Match
from tests.support import require_gnubg

pytestmark = pytest.mark.django_db


def play(seed: int, *, length: int, names, max_games: int = 10, leave_after: int | None = None, **options):
    """Play a match through the services with a seeded random policy; returns it finished
    (or left after ``leave_after`` games in a money session)."""
    rng = random.Random(seed)
    p1 = services.player_register(username=names[0], password="pw-" + names[0] * 3)
    p2 = services.player_register(username=names[1], password="pw-" + names[1] * 3)
    seat = {"white": p1, "black": p2}
    with services.use_dice(SeededDice(f"{seed:064x}")):
        match = services.match_create(creator=p1, length=length, **options)
        services.match_join(player=p2, match_id=match.pk)
        for _ in range(5000):
            match.refresh_from_db()
            if match.status != Match.PLAYING:
                return match
            game = match.games.order_by("-number").first()
            if leave_after is not None and game.number > leave_after:
                services.match_leave(match_id=match.pk, player=seat[rng.choice(["white", "black"])])
                continue
            if game.number > max_games and not length:
                services.match_leave(match_id=match.pk, player=p1)
                continue
            state = game.game_state()
            actor = state.actor
            kw = {"game_id": game.pk, "player": seat[actor]}
            turns = state.turn_number
            if state.phase == TURN:
                if state.can_double(actor) and rng.random() < 0.15:
                    services.game_double(**kw)
                elif turns > 10 and rng.random() < 0.04:
                    services.game_resign_offer(**kw, level=rng.choice([1, 2, 3]))
                elif turns > 12 and rng.random() < 0.01:
                    services.game_resign(**kw)
                else:
                    services.game_roll(**kw)
            elif state.phase == CUBE_OFFERED:
                r = rng.random()
                if state.can_beaver(actor) and r < 0.5:
                    services.game_beaver(**kw)
                elif r < 0.45:
                    services.game_drop(**kw)
                else:
                    services.game_take(**kw)
            elif state.phase == RESIGN_OFFERED:
                if rng.random() < 0.5:
                    services.game_resign_accept(**kw)
                else:
                    services.game_resign_reject(**kw)
            elif state.phase == MOVE:
                services.game_move(**kw, moves=rng.choice(state.legal_plays()).to_list())
    raise AssertionError("the match did not end")


def _events(game):
    return [{"type": e.type, "payload": e.payload} for e in game.events.order_by("version")]


def test_gnubg_reads_every_game_of_our_exports():
    gnubg = require_gnubg()
    matches = [
        play(11, length=5, names=("ann", "bea")),
        play(12, length=7, names=("cid", "dan")),
        play(13, length=3, names=("eve", "fay")),
        play(14, length=0, names=("gus", "hal"), jacoby=True, leave_after=6),
        play(15, length=0, names=("ivy", "jon"), leave_after=6),
    ]
    texts = [(match_to_mat(m), m.jacoby) for m in matches]
    read = gnubg_read(gnubg, texts)

    seen = {"take": 0, "drop": 0, "resign": 0, "bearoff": 0, "forfeit": 0, "crawford": 0}
    checked = 0
    for match, (text, _jacoby), theirs in zip(matches, texts, read):
        games = list(match.games.order_by("number"))
        finished = [g for g in games if g.status == Game.FINISHED]
        assert len(theirs["games"]) == len(finished), text
        for game, gnubg_game in zip(finished, theirs["games"]):
            where = f"match {match.length}-point #{match.pk} game {game.number}"
            assert (gnubg_game["winner"], gnubg_game["points"]) == (game.winner_color, game.points), where
            ours = game_position_ids(game)[-1]
            assert (gnubg_game["positionId"], gnubg_game["matchId"]) == (ours["positionId"], ours["matchId"]), where
            checked += 1
            types = set(game.events.values_list("type", flat=True))
            seen["take"] += "take" in types
            seen["drop"] += "drop" in types
            end = game.events.get(type="game_end").payload
            seen[end["reason"]] = seen.get(end["reason"], 0) + 1
            seen["crawford"] += bool(game.events.get(type="game_start").payload["crawfordGame"])
        assert theirs["score"] == (match.white_score, match.black_score), text

        # our own importer reads the same games back
        imported = import_mat(text, jacoby=match.jacoby if not match.length else None)
        assert imported.score == (match.white_score, match.black_score)
        for game, events in zip(finished, imported.games):
            ours = [(e["type"], e["payload"].get("notation")) for e in _events(game) if e["type"] in ("move", "double", "take", "drop")]
            back = [(e["type"], e["payload"].get("notation")) for e in events if e["type"] in ("move", "double", "take", "drop")]
            if game.events.filter(type__in=("resign_accept", "resign", "forfeit")).exists():
                ours, back = ours[:len(back)], back[:len(ours)]  # a forced play before a resignation
            assert back == ours, f"game {game.number}"

    assert checked >= 20
    assert all(seen[k] for k in ("take", "drop", "resign", "bearoff", "forfeit", "crawford")), seen


def test_a_session_with_a_beaver_is_not_exported():
    match = play(16, length=0, names=("kim", "lou"), beaver=True, leave_after=8)
    assert GameEvent.objects.filter(game__match=match, type="beaver").exists()
    with pytest.raises(NotExportable) as exc:
        match_to_mat(match)
    assert exc.value.code == "not_exportable" and "beaver" in str(exc.value)


def test_a_match_awarded_by_forfeit_reads_back_at_its_real_score():
    """Leaving a 7-point match in its second game: the opponent is awarded the match, the game in
    progress scores nothing, and the export says so in a comment; gnubg reads the games
    played with their results, the last one unfinished, and the score reached by play."""
    gnubg = require_gnubg()
    match = play(21, length=7, names=("max", "ned"), leave_after=1)
    assert match.status == Match.FINISHED and match.end_reason == "forfeit" and match.winner_id
    games = list(match.games.order_by("number"))
    last = games[-1]
    assert last.number == 2 and last.points == 0 and last.winner_color == match.color_of(match.winner_id)
    played = {"white": 0, "black": 0}
    for game in games[:-1]:
        played[game.winner_color] += game.points
    assert (match.white_score, match.black_score) == (played["white"], played["black"])
    assert max(played.values()) < 7  # awarded, not won on points

    text = match_to_mat(match)
    winner = match.winner.display_name
    assert text.startswith(f"; {winner} wins the match by forfeit at ")
    theirs = gnubg_read(gnubg, [(text, False)])[0]
    assert len(theirs["games"]) == 2
    for game, gnubg_game in zip(games[:-1], theirs["games"]):
        assert (gnubg_game["winner"], gnubg_game["points"]) == (game.winner_color, game.points)
    assert theirs["games"][-1]["winner"] is None and theirs["games"][-1]["points"] == 0
    assert theirs["score"] == (match.white_score, match.black_score)
    assert theirs["match"]["comment"].startswith(f"{winner} wins the match by forfeit")  # gnubg keeps it

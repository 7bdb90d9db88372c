"""Reads: snapshots for a viewer, event ranges, lobby lists, history, leaderboard.

Nothing here writes. The snapshot is the one serialiser of a game's state for
clients (websocket, bot API, pages): it speaks the absolute frame of RULES.md.
"""

from __future__ import annotations

from django.db.models import Q

from .engine import CUBE_OFFERED, MOVE, OVER, RESIGN_OFFERED, other
from .engine.gnubgid import match_id, position_id
from .events import event_dict
from .models import Game, GameEvent, Match, Player
from .services.clock import clock_dict

RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


def player_dict(player: Player | None) -> dict | None:
    if player is None:
        return None
    return {
        "id": player.pk,
        "name": player.display_name,
        "rating": round(player.rating, 1),
        "isBot": player.is_bot,
    }


def match_dict(match: Match) -> dict:
    return {
        "id": match.pk,
        "status": match.status,
        "length": match.length,
        "white": player_dict(match.white),
        "black": player_dict(match.black),
        "score": [match.white_score, match.black_score],
        "crawfordGame": match.crawford_game,
        "postCrawford": match.crawford_done and not match.crawford_game,
        "rules": match.rules().to_dict(),
        "private": match.private,
        "spectatorsAllowed": match.spectators_allowed,
        "rated": match.rated,
        "winner": match.color_of(match.winner_id) if match.winner_id else None,
        "endReason": match.end_reason,
    }


def position_ids(state, *, length: int = 0, score: tuple = (0, 0)) -> dict:
    """GNU Backgammon's Position ID, Match ID and ``posid:matchid`` of a state within
    its match (``length`` 0 for money, ``score`` as (white, black) at the game's start)."""
    pos = state.position
    if state.phase == OVER:
        reason = state.result.reason if state.result else ""
        game_state = {"resign": 3, "drop": 4}.get(reason, 2)
    else:
        game_state = 1
    dice = tuple(sorted(state.dice, reverse=True)) if state.dice else (0, 0)
    mid = match_id(
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        on_roll=pos.turn,
        crawford=state.rules.crawford_game,
        game_state=game_state,
        turn=state.actor or pos.turn,
        double_offered=state.phase == CUBE_OFFERED,
        resign_offered=state.resign_offer[1] if state.phase == RESIGN_OFFERED and state.resign_offer else 0,
        dice=dice,
        match_length=length,
        score=score,
    )
    pid = position_id(pos)
    return {"positionId": pid, "matchId": mid, "gnubgId": f"{pid}:{mid}"}


def game_snapshot(game: Game, viewer_color: str | None = None) -> dict:
    """Everything a client needs to draw the game, for a player or a spectator.

    Legal plays are included for the side on roll (the client never computes
    rules). The dice seed appears only once the game is over.
    """
    state = game.game_state()
    match = game.match
    pos = state.position
    snapshot = {
        "game": game.pk,
        "match": match_dict(match),
        "number": game.number,
        "version": game.version,
        "status": game.status,
        "phase": state.phase,
        "turn": pos.turn,
        "actor": state.actor,
        "you": viewer_color,
        **pos.to_dict(),
        "pips": {"white": pos.pip_count("white"), "black": pos.pip_count("black")},
        "dice": list(state.dice) if state.dice else None,
        "cube": {
            "value": state.cube_value,
            "owner": state.cube_owner,
            "enabled": state.rules.cube_in_play,
            "canDouble": bool(viewer_color) and state.can_double(viewer_color),
            "canBeaver": bool(viewer_color) and state.can_beaver(viewer_color),
            "canRaccoon": bool(viewer_color) and state.can_raccoon(viewer_color),
        },
        "resignOffer": (
            {"by": state.resign_offer[0], "level": state.resign_offer[1],
             "name": RESIGN_NAMES[state.resign_offer[1]]}
            if state.resign_offer else None
        ),
        "legalMoves": [p.to_list() for p in state.legal_plays()] if state.phase == MOVE else [],
        "lastTurn": (
            {"color": state.last_mover, "moves": [s.to_dict() for s in state.last_play]}
            if state.last_mover else None
        ),
        "result": state.result.to_dict() if state.result else None,
        "diceCommitment": game.dice_commitment,
        "diceSeed": game.dice_seed if game.status == Game.FINISHED else None,
        **position_ids(state, length=match.length, score=score_at_start(game, match)),
        "clock": clock_dict(game, match),
    }
    return snapshot


def score_at_start(game: Game, match: Match) -> tuple:
    """The match score when ``game`` started (its own points not yet added)."""
    if game.status != Game.FINISHED or not game.winner_color:
        return (match.white_score, match.black_score)
    white, black = match.white_score, match.black_score
    if game.winner_color == "white":
        white -= game.points
    else:
        black -= game.points
    return (white, black)


def events_since(game: Game, version: int) -> list:
    """The wire events of ``game`` after ``version``, in order."""
    return [event_dict(e) for e in GameEvent.objects.filter(game=game, version__gt=version).order_by("version")]


def current_game(match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def open_matches():
    """Public matches waiting for an opponent."""
    return (Match.objects.filter(status=Match.OPEN, private=False)
            .select_related("white").order_by("-created_at"))


def live_matches():
    """Matches being played that anyone may watch."""
    return (Match.objects.filter(status=Match.PLAYING, spectators_allowed=True, private=False)
            .select_related("white", "black").order_by("-started_at"))


def match_history(player: Player):
    """A player's finished matches, newest first."""
    return (Match.objects.filter(Q(white=player) | Q(black=player), status=Match.FINISHED)
            .select_related("white", "black", "winner").order_by("-finished_at"))


def leaderboard(limit: int = 50):
    """Active human and bot players by rating (only those who finished a rated match)."""
    return (Player.objects.filter(suspended=False, experience__gt=0)
            .select_related("user").order_by("-rating", "pk")[:limit])


def opponent(color: str) -> str:
    return other(color)


# -- pages of the browser client (game page, waiting room, replay) ----------------------------


def viewer_color(match: Match, player: Player | None) -> str | None:
    """``player``'s colour in ``match``, or None for a spectator."""
    return match.color_of(player) if player is not None else None


def may_watch(match: Match, player: Player | None) -> bool:
    """The websocket's rule for pages: players, and spectators the match lets in."""
    if player is not None and player.suspended:
        return False
    if player is not None and match.color_of(player):
        return True
    if player is not None:
        return match.spectators_allowed
    return match.spectators_allowed and match.anonymous_spectators


def game_history(game: Game) -> list:
    """The wire events of ``game`` from its start (``t``, ``v``, ``d``, ``game``), for the move list."""
    return [{"t": e["t"], "v": e["v"], "d": e["d"], "game": e["game"]} for e in events_since(game, 0)]


def match_status(match: Match) -> dict:
    """What the waiting page polls: the match's status and its current game."""
    game = current_game(match)
    return {"id": match.pk, "status": match.status, "game": game.pk if game else None}


def replay_positions(game: Game) -> list:
    """Every step of a game's log with the position after it, for the replay viewer."""
    from .replay import replay_steps

    events = GameEvent.objects.filter(game=game).order_by("version")
    out = []
    for event, state in replay_steps({"t": e.type, "d": e.payload, "v": e.version} for e in events):
        out.append({
            "v": event["v"],
            "t": event["t"],
            "d": event["d"],
            "position": state.position.to_dict(),
            "pips": {"white": state.position.pip_count("white"), "black": state.position.pip_count("black")},
            "dice": list(state.dice) if state.dice else None,
            "cube": {"value": state.cube_value, "owner": state.cube_owner, "enabled": state.rules.cube_in_play},
            "phase": state.phase,
        })
    return out

"""Reads: snapshots for a viewer, event ranges, lobby lists, history, leaderboard.

Nothing here writes. The snapshot is the one serialiser of a game's state for
clients (websocket, bot API, pages): it speaks the absolute frame of RULES.md.
"""

from __future__ import annotations

from django.db.models import Q

from games.engine import other
from games.events import envelope, frame
from games.models import Game, GameEvent, Match, Player
from games.selectors.visibility import VIEW_ANY, can_view_match, listed_matches, visible_matches  # noqa: F401
from games.selectors.serializers import (
    RESIGN_NAMES,
    game_snapshot,
    legal_json,
    legal_moves,
    match_dict,
    player_dict,
    position_ids,
    score_at_start,
    state_summary,
)


def events_since(game: Game, version: int) -> list:
    """The envelopes of ``game``'s events after ``version``, in order; the last one carries
    the current state and the legal plays (as a live event would)."""
    # Only up to the game row as read: a commit after that read would bring events newer than
    # the state the last one is given (and its legal plays); they come with their own batch.
    rows = list(GameEvent.objects.filter(game_id=game.pk, version__gt=version, version__lte=game.version)
                .order_by("version"))
    out = [envelope(row) for row in rows]
    if out:
        state = game.game_state()
        legal_for, legal = legal_json(state)
        out[-1] = envelope(rows[-1], state=state_summary(game, game.match, state), legal_json=legal,
                           legal_for=legal_for)
    return out


def catch_up(game: Game, since: int, viewer: str | None) -> list:
    """What ``viewer`` is missing after ``since``: the frames, as text (see :func:`events_since`)."""
    return [frame(env, viewer) for env in events_since(game, since)]


def current_game(match: Match) -> Game | None:
    return match.games.order_by("-number").first()


def open_matches():
    """Public matches waiting for an opponent."""
    return (listed_matches().filter(status=Match.OPEN)
            .select_related("white").order_by("-created_at"))


def live_matches():
    """Matches being played that anyone may watch."""
    from games.selectors.lobby import deserted_q

    return (listed_matches().filter(status=Match.PLAYING, spectators_allowed=True)
            .exclude(deserted_q()).select_related("white", "black").order_by("-started_at"))


def running_matches(player: Player) -> list:
    """``player``'s matches still open or being played (the lobby's "Your games"), newest first."""
    return list(Match.objects.filter(Q(white=player) | Q(black=player), status__in=[Match.OPEN, Match.PLAYING])
                .select_related("white", "black").order_by("-created_at")[:20])


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


# The old spellings (player first), kept for callers written before games.selectors.visibility: both
# ask the one rule there.
def can_view(match: Match, player: Player | None, user=None) -> bool:
    return can_view_match(user if user is not None else getattr(player, "user", None), match)


may_watch = can_view


def viewable_matches(queryset, player: Player | None, user=None):
    return visible_matches(user if user is not None else getattr(player, "user", None), queryset)


def game_history(game: Game) -> list:
    """The wire events of ``game`` from its start (``t``, ``v``, ``d``, ``game``), for the move list."""
    return [{"t": row.type, "v": row.version, "d": row.payload, "game": row.game_id}
            for row in GameEvent.objects.filter(game_id=game.pk).order_by("version")]


def match_status(match: Match) -> dict:
    """What the waiting page polls: the match's status and its current game."""
    game = current_game(match)
    return {"id": match.pk, "status": match.status, "game": game.pk if game else None}


def replay_positions(game: Game) -> list:
    """Every step of a game's log with the position after it, for the replay viewer."""
    from games.engine.replay import replay_steps

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

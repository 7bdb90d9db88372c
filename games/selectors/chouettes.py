"""What a chouette looks like from outside: the state every viewer sees, a viewer's
snapshot, the lobby entry, the history and the human-readable ``.txt`` log.

Reads only (models and the pure engine): the services build event frames with
:func:`public_state`; pages, sockets and the bot API read the rest.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Case, Count, Exists, F, IntegerField, OuterRef, Q, Value, When
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.engine import chouette as ce
from games.events import Envelope
from games.models import Chouette, ChouetteChat, ChouetteEvent, ChouetteGame, ChouetteSeat


def names(chouette: Chouette) -> dict:
    """``{player id: display name}`` of everyone who ever sat at the table."""
    return {s.player_id: s.player.display_name
            for s in ChouetteSeat.objects.filter(chouette=chouette).select_related("player")}


def seats(chouette: Chouette) -> list:
    return [{"player": s.player_id, "name": s.player.display_name, "active": s.active,
             "bot": s.player.is_bot, "away": s.away_since is not None}
            for s in ChouetteSeat.objects.filter(chouette=chouette).select_related("player").order_by("pk")]


def _starters(chouette: Chouette, seated: list) -> list:
    """Who may press "Start the chouette" now (``ChouetteRules.starters``): nobody once it has
    started, nor until enough players sit."""
    if chouette.status != Chouette.OPEN or chouette.state is not None:
        return []
    rules = ce.ChouetteRules.from_dict(chouette.rules)
    players = [s["player"] for s in seated if s["active"]]
    return rules.starters(players, chouette.created_by_id) if rules.may_start_with(players) else []


def public_state(chouette: Chouette, row: ChouetteGame | None, session, game) -> dict:
    """The state after an event, the same for every viewer (the legal plays are public too)."""
    seated = seats(chouette)
    out = {
        "chouette": chouette.pk,
        "status": chouette.status,
        "version": chouette.version,
        "creator": chouette.created_by_id,
        "rules": chouette.rules,
        "decisionSeconds": chouette.decision_seconds,
        "deadline": chouette.deadline.isoformat() if chouette.deadline else None,
        "seats": seated,
        "starters": _starters(chouette, seated),
        "session": session.to_dict() if session else None,
        "game": None,
    }
    if row is not None and game is not None:
        out["game"] = {
            "id": row.pk, "number": row.number, "diceCommitment": row.dice_commitment,
            **game.to_dict(),
            "runningScores": [list(s) for s in game.running_scores()],
            "consult": [p for p in game.team if game.may_consult(p)],
            "allowed": {str(p): list(game.allowed_actions(p)) for p in game.players},
            "legal": [[s.to_dict() for s in play.steps] for play in game.legal_plays()],
        }
    return out


def current(chouette: Chouette) -> tuple:
    """``(row, session, game)`` as stored now."""
    row = chouette.games.filter(status=ChouetteGame.PLAYING).order_by("-number").first()
    session = ce.ChouetteSession.from_dict(chouette.state) if chouette.state else None
    game = ce.ChouetteGame.from_dict(row.state) if row else None
    return row, session, game


def role_of(chouette: Chouette, game, player_id) -> str:
    """``box``, ``captain``, ``crew`` (in the current game), ``seated``, or ``spectator``."""
    if game is not None and player_id is not None:
        if player_id == game.box:
            return "box"
        if player_id == game.captain:
            return "captain"
        if player_id in game.team:
            return "crew"
    if player_id is not None and ChouetteSeat.objects.filter(chouette=chouette, player_id=player_id,
                                                              active=True).exists():
        return "seated"
    return "spectator"


def snapshot(chouette: Chouette, player_id) -> dict:
    """A viewer's whole picture: the public state, his role, the invite code for those seated."""
    row, session, game = current(chouette)
    out = public_state(chouette, row, session, game)
    out["you"] = player_id
    out["role"] = role_of(chouette, game, player_id)
    out["inviteCode"] = chouette.invite_code if out["role"] != "spectator" else None
    out["lastEnd"] = last_end(chouette)
    return out


def last_end(chouette: Chouette) -> dict | None:
    """The last finished game as its ``game_end`` event told it (``number``, ``result``, ``lines``,
    ``scores``, the final ``position``), and ``ago``: seconds since it ended. None before the first."""
    row = chouette.games.filter(status=ChouetteGame.FINISHED).order_by("-number").first()
    if row is None or not row.result:
        return None
    event = ChouetteEvent.objects.filter(chouette=chouette, type="game_end").order_by("-version").first()
    d = event.payload if event is not None and event.payload.get("number") == row.number else {}
    who = names(chouette)
    result = ce.ChouetteResult.from_dict(row.result)
    ago = (timezone.now() - row.finished_at).total_seconds() if row.finished_at else None
    return {"number": row.number, "result": row.result, "lines": d.get("lines") or result.lines(lambda p: who.get(p, str(p))),
            "scores": d.get("scores") or [list(s) for s in result.scores],
            "position": ce.ChouetteGame.from_dict(row.state).position.to_dict(), "ago": ago}


def chat_rooms(chouette: Chouette, player_id) -> list:
    """The rooms a viewer reads: the table and, for a member of the current game's team, the team."""
    if player_id is None:
        return [ChouetteChat.SPECTATORS]
    row, _session, game = current(chouette)
    role = role_of(chouette, game, player_id)
    if role == "spectator":
        return [ChouetteChat.SPECTATORS]
    return [ChouetteChat.TABLE] + ([ChouetteChat.TEAM] if role in ("captain", "crew") else [])


def chat_dict(m: ChouetteChat) -> dict:
    return {"id": m.pk, "room": m.room, "game": m.game_id, "author": m.author_id, "name": m.name,
            "text": m.text, "play": m.play, "at": m.created_at.isoformat()}


def chat_recent(chouette: Chouette, player_id, limit: int = 50) -> list:
    """The last lines of the viewer's rooms (the team room: the current game's team only)."""
    rooms = chat_rooms(chouette, player_id)
    row = chouette.games.filter(status=ChouetteGame.PLAYING).order_by("-number").first()
    shown = Q(room__in=[r for r in rooms if r != ChouetteChat.TEAM])
    if ChouetteChat.TEAM in rooms:
        shown |= Q(room=ChouetteChat.TEAM, game=row)
    messages = list(ChouetteChat.objects.filter(shown, chouette=chouette).order_by("-pk")[:limit])[::-1]
    return [chat_dict(m) for m in messages]


def events_since(chouette: Chouette, since: int) -> list:
    """The envelopes of the stored events after ``since``, as the live ones are built (no
    state: a snapshot ends every catch-up)."""
    return [Envelope(game=e.game_id or 0, v=e.version, t=e.type, d=e.payload, actor=e.actor_id)
            for e in ChouetteEvent.objects.filter(chouette=chouette, version__gt=since).order_by("version")]


# -- the lobby and the history ------------------------------------------------------------------


def lobby_entry(c: Chouette) -> dict:
    return {"id": c.pk, "status": c.status, "creator": c.created_by.display_name,
            "seats": [s["name"] for s in seats(c) if s["active"]],
            "maxPlayers": c.rules.get("maxPlayers", 8), "invite": f"/chouettes/join/{c.invite_code}/"}


#: Tables on one page of the chouettes' lobby.
LOBBY_PAGE = 20


def _humans_seated(exclude_player=None) -> Exists:
    """Whether a chouette (the outer row) has an active seat of a person (not a house bot)."""
    seats = ChouetteSeat.objects.filter(chouette=OuterRef("pk"), active=True, player__housebot__isnull=True)
    return Exists(seats.exclude(player_id=exclude_player) if exclude_player is not None else seats)


def lobby_tables():
    """Public chouettes not over, in the lobby's order: **tables with a free seat first**,
    fullest of people first, then newest; then the full ones (to watch). A table one player
    opened and left empty never pushes a table with players off the first page."""
    seated = Count("seats", filter=Q(seats__active=True), distinct=True)
    people = Count("seats", filter=Q(seats__active=True, seats__player__housebot__isnull=True), distinct=True)
    most = Coalesce(Cast(KeyTextTransform("maxPlayers", "rules"), IntegerField()), Value(8))
    return (Chouette.objects.filter(private=False, status__in=[Chouette.OPEN, Chouette.PLAYING])
            .annotate(seated=seated, people=people, most=most)
            .annotate(free=Case(When(seated__lt=F("most"), then=Value(1)), default=Value(0)))
            .select_related("created_by").order_by("-free", "-people", "-created_at", "-pk"))


def open_chouettes(limit: int = 50) -> list:
    """The lobby's first ``limit`` tables (:func:`lobby_tables`' order)."""
    return [lobby_entry(c) for c in lobby_tables()[:limit]]


def open_chouettes_page(page=1, per_page: int = LOBBY_PAGE) -> dict:
    """One page of the lobby: ``{"tables", "page", "pages", "count"}``; a page out of range
    (or not a number) is the nearest one."""
    paginator = Paginator(lobby_tables(), per_page)
    chosen = paginator.get_page(page)
    return {"tables": [lobby_entry(c) for c in chosen], "page": chosen.number, "pages": paginator.num_pages,
            "count": paginator.count}


def lonely_tables(player) -> int:
    """How many public chouettes ``player`` opened that are not over and where no other
    person (house bots do not count) sits: what the open-table limit counts."""
    return (Chouette.objects.filter(created_by=player, private=False, status__in=[Chouette.OPEN, Chouette.PLAYING])
            .exclude(_humans_seated(exclude_player=player.pk)).count())


def people_seated(chouette: Chouette) -> int:
    """Active seats of people (not house bots) at ``chouette``."""
    return ChouetteSeat.objects.filter(chouette=chouette, active=True, player__housebot__isnull=True).count()


# How a member's own cube ended, and the kind of win, in the reader's words (the codes stay).
HOW_WORDS = {"won": gettext_lazy("won"), "lost": gettext_lazy("lost"), "dropped": gettext_lazy("dropped the double"),
             "box_dropped": gettext_lazy("the box dropped"), "settled": gettext_lazy("settled"),
             "sold_to_captain": gettext_lazy("sold to the captain"),
             "sold_to_last_member": gettext_lazy("sold to the last member")}
KIND_WORDS = {"single": gettext_lazy("a single game"), "gammon": gettext_lazy("a gammon"),
              "backgammon": gettext_lazy("a backgammon")}


def history(chouette: Chouette) -> list:
    """Every finished game: box, team, each member's cube and result, the points."""
    who = names(chouette)
    out = []
    for row in chouette.games.filter(status=ChouetteGame.FINISHED).order_by("number"):
        r = ce.ChouetteResult.from_dict(row.result)
        out.append({
            "number": row.number, "box": who.get(r.box, r.box), "team": [who.get(p, p) for p in r.team],
            "boxHolds": r.box_holds, "ending": r.ending,
            "members": [{"name": who.get(m.player, m.player), "cubeValue": m.cube_value, "cubeOwner": m.cube_owner,
                         "how": m.how, "kind": m.kind, "points": m.points,
                         "howWord": str(HOW_WORDS.get(m.how, m.how)),
                         "kindWord": str(KIND_WORDS.get(m.kind, m.kind)) if m.kind else None} for m in r.members],
            "scores": [[who.get(p, p), pts] for p, pts in r.scores],
        })
    return out


def _point(p, team: bool):
    """A point as its mover numbers it (the team plays Black: absolute 1 is its 24)."""
    return 25 - p if team and isinstance(p, int) else p


def text_log(chouette: Chouette) -> str:
    """The session as text a person can read (the .mat format cannot hold a chouette).
    Each side's moves use its own point numbers, like a match file."""
    who = names(chouette)

    def name(p):
        return who.get(p, str(p))

    rules = ", ".join(f"{k} {'on' if v is True else 'off' if v is False else v}"
                      for k, v in chouette.rules.items() if v is not None)
    lines = [f"Chouette #{chouette.pk}", f"Rules: {rules}", ""]
    box = None
    for e in ChouetteEvent.objects.filter(chouette=chouette).order_by("version"):
        d, actor = e.payload, name(e.actor_id) if e.actor_id else "server"
        if e.type == "game_start":
            box = d["box"]
            lines += ["", f"Game {d['number']}: box {name(d['box'])}, team " + ", ".join(name(p) for p in d["team"])]
        elif e.type == "opening_roll":
            lines.append(f"  Opening roll: box {d['box']}, team {d['team']}")
        elif e.type == "roll":
            lines.append(f"  {actor} rolls {d['dice'][0]}-{d['dice'][1]}")
        elif e.type == "move":
            team = e.actor_id != box
            steps = " ".join(f"{_point(s['from'], team)}/{_point(s['to'], team)}" for s in d.get("steps", []))
            lines.append(f"  {actor} plays {steps or '(no move)'}")
        elif e.type == "game_end":
            lines += [f"  {line}" for line in d.get("lines", [])]
            lines.append("  Scores: " + ", ".join(f"{name(p)} {pts:+d}" for p, pts in d["scores"]))
        elif e.type == "seat":
            lines.append(f"{name(d['player'])} sits down" + (" (from the next game)" if d.get("waiting") else ""))
        elif e.type == "unseat":
            lines.append(f"{name(d['player'])} leaves the table ({d['reason']})")
        elif e.type == "seating":
            dice = ", ".join(f"{name(p)} {die}" for rnd in d["rolls"] for p, die in rnd)
            lines.append(f"Seating: {dice}; the line: " + ", ".join(name(p) for p in d["line"]))
        elif e.type == "timeout":
            lines.append(f"  {name(d['player'])} ran out of time: the safe answer")
        elif e.type == "paused":
            lines.append("Waiting for players")
        elif e.type != "chouette_open":
            extra = ", ".join(f"{k} {name(v) if k == 'cube' else v}" for k, v in d.items())
            lines.append(f"  {actor}: {e.type.replace('_', ' ')}" + (f" ({extra})" if extra else ""))
    return "\n".join(lines) + "\n"

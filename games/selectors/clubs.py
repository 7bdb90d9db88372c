"""Reads of clubs: the list, one club as a plain dict (its members with ratings and PR, its
ladder, its open and recent challenges, its tournaments, what the viewer may do), and
:func:`club_directs` (a club's owners direct its tournaments). The same dicts serve the
pages and the bot API (docs/CLUBS.md)."""

from __future__ import annotations

from django.db.models import Count

from games.models import Challenge, Club, Membership, Player, Tournament
from games.selectors.analysis import pr_history

RECENT_CHALLENGES = 20


def _iso(at) -> str | None:
    return at.isoformat() if at else None


def club_directs(player, tournament: Tournament) -> bool:
    """Whether ``player`` directs ``tournament`` as an owner of the club it is run for."""
    if player is None or getattr(player, "pk", None) is None or not tournament.club_id:
        return False
    return Membership.objects.filter(club_id=tournament.club_id, player_id=player.pk, role=Membership.OWNER).exists()


def membership_of(club: Club, player) -> Membership | None:
    if player is None or getattr(player, "pk", None) is None:
        return None
    return Membership.objects.filter(club=club, player_id=player.pk).first()


def club_summary(club: Club, *, members: int) -> dict:
    return {"id": club.pk, "name": club.name, "description": club.description, "members": members,
            "ladderReach": club.ladder_reach, "matchLength": club.match_length,
            "challengeHours": club.challenge_hours, "createdAt": _iso(club.created_at)}


def club_list(*, player=None) -> list:
    """Every club (by name) with its number of members; ``player``'s own first when given."""
    clubs = list(Club.objects.annotate(n=Count("memberships")).order_by("name", "pk"))
    mine = set()
    if player is not None and getattr(player, "pk", None) is not None:
        mine = set(Membership.objects.filter(player_id=player.pk).values_list("club_id", flat=True))
    rows = [{**club_summary(c, members=c.n), "isMember": c.pk in mine} for c in clubs]
    return sorted(rows, key=lambda r: not r["isMember"])


def ladder_reach_ok(club: Club, challenger: Membership, defender: Membership) -> bool:
    """The ladder's rule: the defender is above the challenger, at most ``ladder_reach`` places."""
    return 0 < challenger.position - defender.position <= club.ladder_reach


def challenge_dict(c: Challenge) -> dict:
    m = c.match
    return {"id": c.pk, "status": c.status, "matchId": c.match_id, "matchStatus": m.status,
            "challenger": {"id": c.challenger_id, "name": c.challenger.display_name, "position": c.challenger_position},
            "defender": {"id": c.defender_id, "name": c.defender.display_name, "position": c.defender_position},
            "length": m.length, "score": [m.white_score, m.black_score] if m.white_id == c.challenger_id
            else [m.black_score, m.white_score],
            "winner": c.winner_id, "swapped": c.swapped, "endReason": m.end_reason or None,
            "deadline": _iso(c.deadline), "createdAt": _iso(c.created_at), "finishedAt": _iso(c.finished_at)}


def club_members(club: Club, viewer_user=None) -> list:
    """The members in ladder order with rating, record and PR (the average of their analysed
    matches that the viewer may see, ``selectors.analysis.pr_history``; None without one)."""
    rows = Membership.objects.filter(club=club).select_related("player").order_by("position")
    out = []
    for m in rows:
        p: Player = m.player
        out.append({"id": p.pk, "name": p.display_name, "role": m.role, "position": m.position,
                    "rating": round(p.rating), "experience": p.experience, "matchesPlayed": p.matches_played,
                    "matchesWon": p.matches_won, "isBot": p.is_bot,
                    "pr": pr_history(p, viewer_user, limit=50)["average"], "joinedAt": _iso(m.joined_at)})
    return out


def club_detail(club: Club, viewer: Player | None = None) -> dict:
    """Everything the club's page shows; the invite token only to its owners."""
    viewer_user = getattr(viewer, "user", None)
    members = club_members(club, viewer_user)
    challenges = list(Challenge.objects.filter(club=club).select_related("match", "challenger", "defender")
                      .order_by("-created_at", "-pk")[:RECENT_CHALLENGES])
    open_ = list(Challenge.objects.filter(club=club, status=Challenge.OPEN)
                 .select_related("match", "challenger", "defender").order_by("pk"))
    out = club_summary(club, members=len(members))
    out["memberList"] = members
    out["owners"] = [m["name"] for m in members if m["role"] == Membership.OWNER]
    out["openChallenges"] = [challenge_dict(c) for c in open_]
    out["recentChallenges"] = [challenge_dict(c) for c in challenges if c.status != Challenge.OPEN]
    out["tournaments"] = [{"id": t.pk, "name": t.name, "status": t.status, "statusName": t.get_status_display(),
                          "format": t.format}
                          for t in Tournament.objects.filter(club=club).order_by("-created_at", "-pk")[:20]]
    mine = next((m for m in members if viewer is not None and m["id"] == viewer.pk), None)
    if viewer is not None:
        busy = {c.challenger_id for c in open_} | {c.defender_id for c in open_}
        out["you"] = {
            "isMember": mine is not None, "isOwner": bool(mine and mine["role"] == Membership.OWNER),
            "position": mine["position"] if mine else None, "busy": viewer.pk in busy,
            "canChallenge": [] if mine is None or viewer.pk in busy else [
                m["id"] for m in members
                if 0 < mine["position"] - m["position"] <= club.ladder_reach and m["id"] not in busy],
        }
        if out["you"]["isOwner"]:
            out["inviteToken"] = club.invite_token
    return out


__all__ = ["club_directs", "club_list", "club_detail", "club_members", "club_summary", "membership_of",
           "challenge_dict", "ladder_reach_ok"]

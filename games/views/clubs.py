"""The clubs' pages (thin: reads through ``games.selectors.clubs``, writes through the
services): the list and a new club, a club's page (its ladder with the challenges, its
tournaments, the owners' tools), its members' page (ratings, record, PR), and the invite
link's page. Rules: docs/CLUBS.md."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import clock, services
from games.errors import ServiceError
from games.models import Club
from games.selectors import clubs as view
from games.selectors.players import player_of
from games.views.tournaments import when


def _number(value):
    """A form's number as an int (anything else is passed on for the service to refuse)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def club_list(request):
    """``GET /clubs/``: every club, the viewer's own first; a form for a new one."""
    return render(request, "clubs.html", {"clubs": view.club_list(player=player_of(request.user))})


@login_required
@require_POST
def club_create(request):
    try:
        club = services.club_create(by=player_of(request.user), name=request.POST.get("name", ""),
                                    description=request.POST.get("description", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("club_list")
    messages.success(request, _("Your club is open: send its invite link to your members."))
    return redirect("club_page", club_id=club.pk)


def _detail(request, club_id):
    club = get_object_or_404(Club, pk=club_id)
    return club, view.club_detail(club, player_of(request.user))


def club_page(request, club_id):
    """``GET /clubs/<id>/``: the ladder, the challenges, the tournaments, the owners' tools."""
    club, detail = _detail(request, club_id)
    for c in detail["openChallenges"]:
        c["deadlineText"] = when(c["deadline"])
    invite = (request.build_absolute_uri(f"/clubs/join/{detail['inviteToken']}/")
              if detail.get("inviteToken") else None)
    return render(request, "club.html", {"c": detail, "you": detail.get("you"), "invite": invite,
                                         "clock_presets": clock.preset_choices()})


def club_members(request, club_id):
    """``GET /clubs/<id>/members/``: every member with rating, record and PR."""
    club, detail = _detail(request, club_id)
    return render(request, "club_members.html", {"c": detail, "you": detail.get("you")})


def club_invite(request, token):
    """``GET /clubs/join/<token>/``: the club the link is for, and a button to join;
    ``POST``: join."""
    club = Club.objects.filter(invite_token=token).first()
    if club is None:
        raise Http404(_("This invite link is not valid (it may have been renewed)."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        try:
            services.club_join(token=token, player=player_of(request.user))
            messages.success(request, _("Welcome to the club: you are at the foot of its ladder."))
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("club_page", club_id=club.pk)
    detail = view.club_detail(club, player_of(request.user))
    return render(request, "club_join.html", {"c": detail, "you": detail.get("you")})


def _act(request, club_id, fn, done: str, **kwargs):
    try:
        fn(club_id=club_id, **kwargs)
        messages.success(request, done)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("club_members" if request.POST.get("back") == "members" else "club_page", club_id=club_id)


@login_required
@require_POST
def club_leave(request, club_id):
    try:
        services.club_leave(club_id=club_id, player=player_of(request.user))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("club_page", club_id=club_id)
    messages.success(request, _("You have left the club."))
    return redirect("club_list")


@login_required
@require_POST
def club_remove(request, club_id):
    return _act(request, club_id, services.club_remove_member, _("The member is off the club."),
                by=player_of(request.user), player_id=request.POST.get("player"))


@login_required
@require_POST
def club_role(request, club_id):
    return _act(request, club_id, services.club_set_role, _("The role is changed."),
                by=player_of(request.user), player_id=request.POST.get("player"), role=request.POST.get("role"))


@login_required
@require_POST
def club_renew_invite(request, club_id):
    return _act(request, club_id, services.club_renew_invite, _("A new invite link: the old one no longer works."),
                by=player_of(request.user))


@login_required
@require_POST
def club_settings(request, club_id):
    settings = {name: _number(request.POST.get(name)) for name in ("ladder_reach", "match_length", "challenge_hours")
                if request.POST.get(name) not in (None, "")}
    return _act(request, club_id, services.club_update, _("The club's settings are saved."),
                by=player_of(request.user), description=request.POST.get("description"), **settings)


@login_required
@require_POST
def club_challenge(request, club_id):
    try:
        challenge = services.club_challenge(club_id=club_id, by=player_of(request.user),
                                            defender_id=request.POST.get("defender"))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("club_page", club_id=club_id)
    messages.success(request, _("Challenge sent: your match has started."))
    return redirect("match_waiting", match_id=challenge.match_id)


@login_required
@require_POST
def club_tournament(request, club_id):
    try:
        t = services.club_tournament_create(
            club_id=club_id, by=player_of(request.user), name=request.POST.get("name", ""),
            format=request.POST.get("format", ""), length=_number(request.POST.get("length") or 5),
            clock_preset=request.POST.get("clock") or None)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("club_page", club_id=club_id)
    return redirect("tournament_page", tournament_id=t.pk)

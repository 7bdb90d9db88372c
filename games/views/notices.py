"""The e-mail address and the notices: set the address, send and open the verification
link, and a mail's unsubscribe link; the settings page's vacation. Thin: ``games.services``
(``notices``, ``vacations``) does the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games import services
from games.errors import BadRequest, ServiceError
from games.jsonsafe import BadInput, parse
from games.selectors.players import player_of

KIND_DONE = {  # what a mail's unsubscribe link turned off
    "turn": gettext_lazy("No more “your turn” e-mails. Your settings turn them back on."),
    "low": gettext_lazy("No more “time running low” e-mails. Your settings turn them back on."),
    "accepted": gettext_lazy("No more “invitation accepted” e-mails. Your settings turn them back on."),
    "tournament": gettext_lazy("No more “tournament match ready” e-mails. Your settings turn them back on."),
    "digest": gettext_lazy("No more digests of your notices. Your settings turn them back on."),
}


@login_required
@require_POST
def email_set(request):
    """``POST /settings/email/``: change the address (it must then be verified)."""
    try:
        services.player_set_email(player=player_of(request.user), email=request.POST.get("email", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, gettext("Address saved: verify it to receive notices."))
    return redirect("settings")


@login_required
@require_POST
def vacation_start(request):
    """``POST /settings/vacation/`` ``days``: start a vacation now."""
    try:
        days = int(request.POST.get("days") or 0)
    except ValueError:
        days = 0
    try:
        player = services.player_vacation_start(player=player_of(request.user), days=days)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, gettext("On vacation until %(until)s UTC.") % {"until": f"{player.vacation_until:%Y-%m-%d %H:%M}"})
    return redirect("settings")


@login_required
@require_POST
def email_verify_send(request):
    """``POST /accounts/verify-email/``: mail the verification link."""
    try:
        services.email_verification_send(player=player_of(request.user))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, gettext("A link was sent to your address: open it to verify it."))
    return redirect("settings")


def email_verify(request, token):
    """``GET /accounts/verify-email/<token>/``: the link of the mail verifies the address."""
    try:
        player = services.email_verify(token=token)
    except ServiceError as exc:
        return render(request, "notices.html", {"title": gettext("Not verified"), "text": exc.message, "code": exc.code},
                      status=exc.status)
    return render(request, "notices.html", {"title": gettext("Address verified"), "text": gettext(
        "Notices will be sent to %(email)s.") % {"email": player.email_verified}})


@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """``/notices/unsubscribe/<token>/``: a button (GET) that turns the mail's kind off (POST)."""
    if request.method == "GET":
        return render(request, "notices.html", {"title": gettext("Unsubscribe"), "confirm": True,
                                                "text": gettext("Stop this kind of e-mail?")})
    try:
        _player, kind = services.notices_unsubscribe(token=token)
    except ServiceError as exc:
        return render(request, "notices.html", {"title": gettext("Not changed"), "text": exc.message, "code": exc.code},
                      status=exc.status)
    return render(request, "notices.html", {"title": gettext("Unsubscribed"), "text": KIND_DONE[kind]})


# -- Web Push (games.services.push) ---------------------------------------------------------------


def _json_body(request):
    try:
        return parse(request.body.decode("utf-8", "replace"), max_bytes=4096)
    except BadInput as exc:
        raise BadRequest(exc.code, exc.message) from None


@login_required
@require_POST
def push_subscribe(request):
    """``POST /push/subscribe`` with the browser's subscription JSON."""
    try:
        services.push_subscribe(player=player_of(request.user), subscription=_json_body(request))
    except ServiceError as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=exc.status)
    return JsonResponse({"ok": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request):
    """``POST /push/unsubscribe`` ``{"endpoint"}``: this browser no longer wants notices."""
    try:
        body = _json_body(request)
    except ServiceError as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=exc.status)
    removed = services.push_unsubscribe(player=player_of(request.user), endpoint=(body or {}).get("endpoint", ""))
    return JsonResponse({"removed": removed})


def service_worker(request):
    """``/sw.js``: the service worker, served from the root so that its scope is the site."""
    path = finders.find("js/sw.js")
    with open(path, "rb") as script:
        response = HttpResponse(script.read(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response

"""Account pages: sign up, and a login form that says when an account is suspended.

The other account pages (logout, password change and reset) are Django's own
views from ``django.contrib.auth.urls`` with the site's templates. Sign-up
validates with Django's :class:`UserCreationForm` and creates the user and its
player profile through ``games.services.player_register``; nothing here saves
a model itself.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from games import throttle
from games.selectors.players import player_of
from games.auth import SUSPENDED_MESSAGE, is_suspended
from games.errors import BadRequest, ServiceError
from games.models import Player
from games.services import guest_claim, player_register
from games.text import clean_name

SIGNUP_BACKEND = "games.auth.ActivePlayerBackend"


class SignUpForm(UserCreationForm):
    """Username, optional display name and e-mail, password twice."""

    display_name = forms.CharField(
        max_length=Player._meta.get_field("display_name").max_length,
        required=False,
        help_text="Shown to other players. Leave empty to use your username.",
    )
    email = forms.EmailField(
        required=False,
        help_text="Optional; needed only to reset a forgotten password.",
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name", "email")

    def clean_display_name(self):
        value = " ".join(self.cleaned_data.get("display_name", "").split())
        if not value:
            return value
        try:
            return clean_name(value)
        except BadRequest as exc:
            raise ValidationError(exc.message, code=exc.code) from None

    def save(self, commit=True):  # pragma: no cover - guard: the view registers through the service
        raise NotImplementedError("Sign-up goes through games.services.player_register.")


class PlayerAuthenticationForm(AuthenticationForm):
    """Django's login form, with a clear error for a suspended player.

    The backend refuses a suspended player like a wrong password; when the
    password is in fact right, say that the account is suspended instead.
    """

    error_messages = {**AuthenticationForm.error_messages, "suspended": SUSPENDED_MESSAGE,
                      "throttled": "Too many failed logins for this account or from your address: "
                                   "try again in %(minutes)s minute(s)."}

    def clean(self):
        username = self.cleaned_data.get("username")
        wait = throttle.login_blocked(self.request, username) if self.request is not None else None
        if wait is not None:  # checked before the password, so guessing stops here
            raise ValidationError(self.error_messages["throttled"], code="throttled",
                                  params={"minutes": max(1, -(-wait // 60))})
        try:
            return super().clean()
        except ValidationError:
            user = self._suspended_user()
            if user is not None:
                raise ValidationError(self.error_messages["suspended"], code="suspended") from None
            if self.request is not None:
                throttle.login_failed(self.request, username)
            raise

    def _suspended_user(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if not username or not password:
            return None
        UserModel = get_user_model()
        try:
            user = UserModel._default_manager.get_by_natural_key(username)
        except UserModel.DoesNotExist:
            return None
        if user.is_active and is_suspended(user) and user.check_password(password):
            return user
        return None


class PlayerLoginView(LoginView):
    authentication_form = PlayerAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if any(e.code == "throttled" for e in form.non_field_errors().as_data()):
            response.status_code = 429
        return response


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and its player profile, log in, then go to ``next`` (kept from the
    link that led here, an invite say) or home."""
    next_url = safe_next(request)
    guest = _guest(request)
    if request.user.is_authenticated and guest is None:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        wait = throttle.signup_hit(request)
        if wait is not None:
            form.is_valid()
            form.add_error(None, ValidationError(
                f"Too many sign-ups from your address: try again in {max(1, -(-wait // 60))} minute(s).",
                code="throttled"))
            return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {"username": data["username"], "password": data["password1"],
                  "display_name": data.get("display_name", ""), "email": data.get("email", "")}
        try:
            # a guest keeps their player, and so their games; anyone else gets a new one
            player = guest_claim(player=guest, **fields) if guest is not None else player_register(**fields)
        except ServiceError as exc:  # e.g. the name was taken (or looks like a taken one)
            on_display = data.get("display_name") and exc.code != "bad_username"
            form.add_error("display_name" if on_display else "username", ValidationError(exc.message, code=exc.code))
        else:
            login(request, player.user, backend=SIGNUP_BACKEND)
            return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url, "guest": guest})


def _guest(request):
    """The signed-in guest (None for a visitor or a member)."""
    player = player_of(request.user)
    return player if player is not None and player.is_guest else None


def safe_next(request) -> str:
    """The ``next`` of a login or sign-up (an invite link, say), when it stays on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""

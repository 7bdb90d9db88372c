"""Account pages: sign up, log in and out, password change and reset, suspension."""
import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.management import call_command
from django.urls import reverse

from games.auth import ActivePlayerBackend
from games.models import Player
from games.services import player_for_user, player_register, player_set_suspended

PASSWORD = "correct-horse-battery-9"
NEW_PASSWORD = "another-staple-42-xyz"


def signup_data(**overrides):
    data = {
        "username": "alice",
        "display_name": "Alice A.",
        "email": "alice@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


def logged_in_user_id(client):
    return client.session.get(SESSION_KEY)


def login(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


# -- pages render ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["login", "signup", "password_reset", "password_reset_done",
                                  "password_reset_complete"])
def test_anonymous_account_pages_render(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert b"css/site.css" in response.content  # the site's own template, not the admin's
    assert b'href="/accounts/signup/"' in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["password_change", "password_change_done"])
def test_logged_in_account_pages_render(client, django_user_model, name):
    user = django_user_model.objects.create_user("bob", password=PASSWORD)
    client.force_login(user)
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert b"css/site.css" in response.content


@pytest.mark.django_db
def test_header_links_depend_on_login(client, django_user_model):
    page = client.get("/").content.decode()
    # every login and sign-up link brings the visitor back where they were (?next=)
    assert 'href="/accounts/login/?next=/"' in page and 'href="/accounts/signup/?next=/"' in page
    assert "Log out" not in page

    player = player_register(username="carol", password=PASSWORD, display_name="Carol C.")
    client.force_login(player.user)
    page = client.get("/").content.decode()
    assert "Carol C." in page
    assert 'href="/accounts/password_change/"' in page
    assert re.search(r'<form method="post" action="/accounts/logout/"[^>]*>.*csrfmiddlewaretoken.*Log out', page)
    assert 'href="/accounts/signup/' not in page
    assert 'href="/admin/"' not in page  # not staff


# -- sign up -------------------------------------------------------------------------


@pytest.mark.django_db
def test_signup_creates_user_and_player_and_logs_in(client, django_user_model):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    assert response.url == reverse("home")

    user = django_user_model.objects.get(username="alice")
    assert user.check_password(PASSWORD)
    assert user.email == "alice@example.com"
    player = Player.objects.get(user=user)
    assert player.display_name == "Alice A."
    assert not player.is_bot and not player.suspended
    assert logged_in_user_id(client) == str(user.pk)
    assert "Alice A." in client.get("/").content.decode()


@pytest.mark.django_db
def test_signup_display_name_defaults_to_username(client):
    response = client.post(reverse("signup"), signup_data(display_name="", email=""))
    assert response.status_code == 302
    assert Player.objects.get(user__username="alice").display_name == "alice"


@pytest.mark.django_db
def test_signup_refuses_duplicate_username(client, django_user_model):
    player_register(username="Alice", password=PASSWORD)
    response = client.post(reverse("signup"), signup_data(username="alice"))
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert "already exists" in response.content.decode()
    assert django_user_model.objects.count() == 1
    assert logged_in_user_id(client) is None


@pytest.mark.django_db
def test_signup_refuses_mismatched_and_weak_passwords(client, django_user_model):
    response = client.post(reverse("signup"), signup_data(password2="something-else-77"))
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    response = client.post(reverse("signup"), signup_data(password1="123", password2="123"))
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not django_user_model.objects.exists()


@pytest.mark.django_db
def test_signup_when_logged_in_goes_home(client):
    client.force_login(player_register(username="dave", password=PASSWORD).user)
    response = client.get(reverse("signup"))
    assert response.status_code == 302 and response.url == reverse("home")


# -- log in and out ------------------------------------------------------------------


@pytest.mark.django_db
def test_login_and_logout_by_post(client):
    player = player_register(username="erin", password=PASSWORD)
    bad = login(client, "erin", "wrong-password")
    assert bad.status_code == 200
    assert "correct username and password" in bad.content.decode()
    assert logged_in_user_id(client) is None

    response = login(client, "erin", PASSWORD)
    assert response.status_code == 302 and response.url == reverse("home")
    assert logged_in_user_id(client) == str(player.user_id)

    assert client.get(reverse("logout")).status_code == 405  # Django 5: logout is POST only
    assert logged_in_user_id(client) == str(player.user_id)
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response.url == reverse("home")
    assert logged_in_user_id(client) is None


@pytest.mark.django_db
def test_password_change(client):
    player = player_register(username="frank", password=PASSWORD)
    client.force_login(player.user)
    wrong = client.post(reverse("password_change"), {
        "old_password": "not-it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors

    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response.url == reverse("password_change_done")
    assert logged_in_user_id(client) == str(player.user_id)  # the session survives the change

    client.post(reverse("logout"))
    assert login(client, "frank", PASSWORD).status_code == 200  # refused: form shown again
    assert logged_in_user_id(client) is None
    assert login(client, "frank", NEW_PASSWORD).status_code == 302
    assert logged_in_user_id(client) == str(player.user_id)


@pytest.mark.django_db
def test_password_reset_by_email(client, mailoutbox):
    player = player_register(username="grace", password=PASSWORD, email="grace@example.com")
    response = client.post(reverse("password_reset"), {"email": "grace@example.com"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["grace@example.com"]
    assert "\n" not in mail.subject and "Reset your password" in mail.subject
    assert "grace" in mail.body
    link = re.search(r"https?://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", mail.body)
    assert link, mail.body

    response = client.get(link.group(1), follow=True)  # the token moves into the session
    assert response.status_code == 200
    assert response.context["validlink"] is True
    set_url = response.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response.url == reverse("password_reset_complete")

    player.user.refresh_from_db()
    assert player.user.check_password(NEW_PASSWORD)
    assert login(client, "grace", NEW_PASSWORD).status_code == 302
    client.post(reverse("logout"))
    # the link is single-use
    response = client.get(link.group(1), follow=True)
    assert response.context["validlink"] is False
    assert "invalid" in response.content.decode()


@pytest.mark.django_db
def test_password_reset_for_unknown_address_sends_nothing(client, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mailoutbox == []


# -- suspended players ---------------------------------------------------------------------


@pytest.mark.django_db
def test_suspended_player_cannot_log_in(client):
    player = player_register(username="heidi", password=PASSWORD)
    player_set_suspended(player=player, suspended=True)
    response = login(client, "heidi", PASSWORD)
    assert response.status_code == 200
    assert response.context["form"].errors["__all__"] == ["This account is suspended."]
    assert "This account is suspended." in response.content.decode()
    assert logged_in_user_id(client) is None

    # a wrong password still gets the usual answer: no hint that the account exists
    response = login(client, "heidi", "wrong-password")
    assert "suspended" not in response.content.decode()

    player_set_suspended(player=player, suspended=False)
    assert login(client, "heidi", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_logged_in_player_is_logged_out_once_suspended(client):
    player = player_register(username="ivan", password=PASSWORD)
    assert login(client, "ivan", PASSWORD).status_code == 302
    # Suspend behind the service's back (as if its session sweep had missed this one):
    # the backend and the middleware must end the session on their own.
    Player.objects.filter(pk=player.pk).update(suspended=True)
    assert logged_in_user_id(client) == str(player.user_id)

    response = client.get("/")
    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated
    assert "This account is suspended." in response.content.decode()
    assert logged_in_user_id(client) is None
    assert "Log out" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_service_suspension_ends_the_session(client):
    player = player_register(username="judy", password=PASSWORD)
    assert login(client, "judy", PASSWORD).status_code == 302
    player_set_suspended(player=player, suspended=True)
    response = client.get("/")
    assert not response.wsgi_request.user.is_authenticated


@pytest.mark.django_db
def test_backend_refuses_suspended_user(django_user_model):
    player = player_register(username="kim", password=PASSWORD)
    backend = ActivePlayerBackend()
    assert backend.authenticate(None, username="kim", password=PASSWORD) == player.user
    assert backend.get_user(player.user_id) == player.user
    player_set_suspended(player=player, suspended=True)
    assert backend.authenticate(None, username="kim", password=PASSWORD) is None
    assert backend.get_user(player.user_id) is None
    assert backend.get_user("not-a-number") is None
    # a user without a profile is not refused
    plain = django_user_model.objects.create_user("lee", password=PASSWORD)
    Player.objects.filter(user=plain).delete()
    assert backend.authenticate(None, username="lee", password=PASSWORD) == plain


# -- every user gets a player profile --------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_create_superuser_gets_a_player(django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    player = Player.objects.get(user=user)
    assert player.display_name == "root"
    assert not player.suspended


@pytest.mark.django_db(transaction=True)
def test_createsuperuser_command_gets_a_player(monkeypatch, django_user_model):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", "--noinput", "--username", "boss", "--email", "boss@example.com",
                 verbosity=0)
    assert Player.objects.filter(user__username="boss", user__is_superuser=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_player_register_still_makes_exactly_one_profile():
    """The signal waits for the commit, so player_register's own profile wins."""
    player = player_register(username="mallory", password=PASSWORD, display_name="Mal", is_bot=True)
    profiles = Player.objects.filter(user__username="mallory")
    assert profiles.count() == 1
    assert profiles.get().pk == player.pk
    assert profiles.get().display_name == "Mal" and profiles.get().is_bot


@pytest.mark.django_db
def test_signal_profile_inside_a_transaction(django_capture_on_commit_callbacks, django_user_model):
    with django_capture_on_commit_callbacks(execute=True):
        user = django_user_model.objects.create_user("nina", password=PASSWORD)
    assert Player.objects.get(user=user).display_name == "nina"
    assert player_for_user(user).pk == Player.objects.get(user=user).pk

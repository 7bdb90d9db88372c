"""The site's pages and its e-mail come in every language the site speaks: each page shows the
catalogue's translation of its text, not the English source."""

import html

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import translation

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
PAGES = [  # (url, a sentence of its template)
    ("/", "An open-source backgammon server. Pick a table, watch a game, or open your own."),
    ("/leaderboard/", "Nobody has finished a rated match yet."),
    ("/chouettes/", "One player, the box, against a team on one board; every team member has a cube of their "
                    "own. Three to eight players; house bots can fill seats."),
    ("/accounts/signup/", "Create account"),
    ("/accounts/password_reset/", "Enter the e-mail address of your account and we will send you a link to "
                                  "choose a new password."),
]


def translated(code, text):
    with translation.override(code):
        return translation.gettext(text)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("url, text", PAGES, ids=[url for url, _ in PAGES])
def test_a_page_shows_its_text_in_the_visitors_language(client, code, url, text):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=code)
    page = html.unescape(response.content.decode())
    wanted = translated(code, text)
    assert response.status_code == 200 and wanted != text
    assert wanted in page and text not in page


@pytest.mark.parametrize("code", ["tr", "ar", "ru"])
def test_the_password_e_mail_follows_the_language(client, code):
    get_user_model().objects.create_user("mehmet", "mehmet@example.com", "a long enough pass 123")
    client.post("/accounts/password_reset/", {"email": "mehmet@example.com"}, HTTP_ACCEPT_LANGUAGE=code)
    (message,) = mail.outbox
    with translation.override(code):
        assert translation.gettext("Hello %(name)s,") % {"name": "mehmet"} in message.body
    assert "Hello" not in message.body and "Reset your password" not in message.subject


@pytest.mark.parametrize("code", ["de", "he"])
def test_the_words_worded_in_python_follow_too(client, code):
    """The settings' choices and the bot levels' names and blurbs (games.bots.levels)."""
    from games.models import Player

    user = get_user_model().objects.create_user("anna", "anna@example.com", "a long enough pass 123")
    Player.objects.get_or_create(user=user, defaults={"display_name": "anna"})
    client.force_login(user)
    settings_page = html.unescape(client.get("/settings/", HTTP_ACCEPT_LANGUAGE=code).content.decode())
    lobby = html.unescape(client.get("/", HTTP_ACCEPT_LANGUAGE=code).content.decode())
    for text, page in (("Home board on the right", settings_page), ("As my device", settings_page),
                       ("Moves at random: for learning the controls. Instant.", lobby), ("World class", lobby)):
        assert translated(code, text) in page and text not in page, text


@pytest.mark.parametrize("code", ["tr", "fr"])
def test_a_status_and_a_format_read_from_the_models_are_worded_too(client, code):
    """A tournament's status and format, and an ended match's status, come from the models'
    choices: they showed in English ("Finished · kazanan ...", "Match 3: aborted")."""
    from games import services
    from games.models import Match, Player, Tournament

    user = get_user_model().objects.create_user("anna", "anna@example.com", "a long enough pass 123")
    anna = Player.objects.create(user=user, display_name="anna")
    t = services.tournament_create(by=None, name="Sunday", format="swiss", length=3)
    match = Match.objects.create(white=anna, length=3, status=Match.ABORTED)
    client.force_login(user)
    tournament = html.unescape(client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE=code).content.decode())
    waiting = html.unescape(client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=code).content.decode())
    with translation.override(code):
        status, swiss = translation.pgettext("tournament status", "Registering"), translation.gettext("Swiss")
        aborted = translation.pgettext("match status", "Aborted").lower()
    assert f"<b>{status}</b>" in tournament and "Registering" not in tournament
    assert f"<li>{swiss}" in tournament and "<li>Swiss" not in tournament
    assert aborted in waiting and ": aborted" not in waiting
    # every status of both models has its word in the catalogue
    for _, label in Tournament.STATUSES + Match.STATUSES:  # ("Arena" is Turkish too)
        with translation.override("en"):
            english = str(label)
        with translation.override(code):
            assert str(label) != english, english

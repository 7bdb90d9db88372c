"""Choosing a language: the browser's Accept-Language at first visit, the switcher on every page
(a cookie for visitors), the profile for signed-in players; Arabic and Hebrew read right to left."""

import re

import pytest
from django.conf import settings

from games import services

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


@pytest.mark.parametrize("header, lang, direction", [
    ("tr-TR,tr;q=0.9,en;q=0.5", "tr", "ltr"), ("ar", "ar", "rtl"), ("he-IL", "he", "rtl"),
    ("el", "el", "ltr"), ("xx-YY", "en", "ltr"),  # a language the site does not speak: English
])
def test_the_first_visit_follows_the_browser(client, header, lang, direction):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert f'lang="{lang}"' in html_tag(response) and f'dir="{direction}"' in html_tag(response)
    assert response["Content-Language"] == lang


def test_the_switcher_is_on_every_page_and_its_choice_beats_the_browser(client):
    page = client.get("/leaderboard/").content.decode()
    assert 'action="/language/"' in page and all(f'value="{code}"' in page for code, _ in settings.LANGUAGES)
    response = client.post("/language/", {"language": "el", "next": "/leaderboard/"})
    assert response.status_code == 302 and response["Location"] == "/leaderboard/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "el"
    assert 'lang="el"' in html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="tr"))


def test_a_signed_in_players_choice_follows_them_to_another_browser(client, django_user_model):
    player = services.player_register(username="ayse", password="correct horse 9")
    client.force_login(player.user)
    assert client.post("/language/", {"language": "tr", "next": "/"}).status_code == 302
    player.refresh_from_db()
    assert player.settings["language"] == "tr"
    other = type(client)()  # another browser: no cookie, a German Accept-Language
    other.force_login(player.user)
    assert 'lang="tr"' in html_tag(other.get("/", HTTP_ACCEPT_LANGUAGE="de"))
    # "As my browser" on the settings page gives the browser back its say.
    services.player_update_settings(player=player, changes={"language": ""})
    assert 'lang="de"' in html_tag(other.get("/", HTTP_ACCEPT_LANGUAGE="de"))


def test_a_language_the_site_does_not_speak_is_refused_and_changes_nothing(client):
    response = client.post("/language/", {"language": "xx", "next": "/"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_language"
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    player = services.player_register(username="bob", password="correct horse 9")
    with pytest.raises(Exception) as refused:
        services.player_update_settings(player=player, changes={"language": "klingon"})
    assert getattr(refused.value, "code", None) == "bad_setting"


def test_the_browsers_strings_come_from_the_javascript_catalog(client):
    response = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200 and "django.gettext" in response.content.decode()
    assert "/jsi18n/" in client.get("/").content.decode()


@pytest.mark.parametrize("code, word", [("ru", "Рейтинг"), ("ar", "لوحة الصدارة"), ("tr", "Sıralama"),
                                        ("el", "Κατάταξη"), ("en", "Leaderboard")])
def test_the_page_speaks_the_chosen_language(client, code, word):
    page = client.get("/leaderboard/", HTTP_ACCEPT_LANGUAGE=code).content.decode()
    assert f">{word}</a>" in page

"""Settings that follow the player: stored on the profile, written through one service."""

import json

import pytest

from games import services
from games.errors import ServiceError
from games.selectors.preferences import settings_for

pytestmark = pytest.mark.django_db



def test_defaults_then_changes_are_kept_on_the_profile(alice):
    assert settings_for(alice) == {"home": "right", "numbers": "mine", "animation": "auto",
                                            "theme": "auto", "board": "classic", "autoroll": False, "forced": False,
                                            "confirm": True, "sound": True, "mail_turn": True, "mail_low": True, "mail_accepted": True, "mail_tournament": True,
                                            "digest": False, "push": True,
                                            "language": ""}
    services.player_update_settings(player=alice, changes={"theme": "dark", "home": "left", "sound": False})
    alice.refresh_from_db()
    got = settings_for(alice)
    assert (got["theme"], got["home"], got["sound"], got["confirm"]) == ("dark", "left", False, True)


@pytest.mark.parametrize("changes", [{"theme": "pink"}, {"sound": "yes"}, {"colour": "red"}, ["theme"]])
def test_a_bad_setting_is_refused_and_changes_nothing(alice, changes):
    services.player_update_settings(player=alice, changes={"theme": "light"})
    with pytest.raises(ServiceError) as err:
        services.player_update_settings(player=alice, changes=changes)
    assert err.value.code == "bad_setting"
    alice.refresh_from_db()
    assert settings_for(alice)["theme"] == "light" and settings_for(alice)["sound"] is True


def test_the_settings_page_and_json_write_the_profile(client, alice):
    client.force_login(alice.user)
    page = client.get("/settings/").content.decode()
    assert 'name="theme"' in page and 'name="home"' in page
    response = client.post("/settings/", {"home": "left", "numbers": "white", "animation": "slow", "theme": "dark",
                                          "board": "green", "sound": "on", "confirm": "on"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.settings["numbers"] == "white" and alice.settings["autoroll"] is False
    assert 'data-theme="dark"' in client.get("/").content.decode()
    assert 'data-board="green"' in client.get("/").content.decode() and alice.settings["animation"] == "slow"
    ok = client.post("/settings.json", json.dumps({"forced": True}), content_type="application/json")
    assert ok.json()["settings"]["forced"] is True
    bad = client.post("/settings.json", json.dumps({"forced": "x"}), content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_setting"
    broken = client.post("/settings.json", "{", content_type="application/json")
    assert broken.status_code == 400
    alice.refresh_from_db()
    assert alice.settings["forced"] is True
    # the game page boots with them
    other = services.player_register(username="bob", password="correct horse 2")
    match = services.match_create(creator=alice, length=3)
    services.match_join(player=other, match_id=match.pk)
    game = client.get(f"/games/{match.games.get().pk}/").content.decode()
    assert '"home": "left"' in game and '"forced": true' in game

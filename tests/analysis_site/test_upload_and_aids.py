"""A .mat upload replayed through the engine and analysed; hints and the tutor in unrated
play only, refused in rated play with a stable code; the aids shown to everyone."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games import services
from games.errors import ServiceError
from games.selectors.export import match_to_mat
from games.models import Analysis, Job
from games.selectors.serializers import match_dict

from tests.analysis_site.conftest import finish_match, login

pytestmark = pytest.mark.django_db


def _upload(client, text, depth="0"):
    return client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", text.encode()), "depth": depth})


def test_an_uploaded_mat_is_replayed_and_analysed(finished, stranger, django_capture_on_commit_callbacks):
    text = match_to_mat(finished.match)
    client = login(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        response = _upload(client, text)
    assert response.status_code == 302
    analysis = Analysis.objects.get(source=Analysis.UPLOAD)
    assert response["Location"] == f"/analysis/{analysis.pk}/"
    assert analysis.owner == stranger and analysis.match is None and analysis.job.status == Job.DONE
    mine = client.get(f"/analysis/{analysis.pk}.json").json()
    played = login(finished.white).get(f"/matches/{finished.match_id}/analysis.json").json()
    # the same match, analysed from the file: the same decisions and the same statistics
    assert mine["source"] == "upload" and mine["players"]["white"]["name"] == "alice"
    assert [d["gnubgId"] for d in mine["analysis"]["games"][0]["decisions"]] == \
        [d["gnubgId"] for d in played["analysis"]["games"][0]["decisions"]]
    assert mine["analysis"]["stats"]["white"]["overall"] == played["analysis"]["stats"]["white"]["overall"]
    # only its owner sees it
    assert login(finished.white).get(f"/analysis/{analysis.pk}.json").status_code == 404
    assert client.get(f"/analysis/{analysis.pk}/").status_code == 200


def test_an_illegal_move_is_refused_with_its_line_and_nothing_is_stored(finished, stranger):
    lines = match_to_mat(finished.match).splitlines()
    # the first move of the file (White's opening play, right column) becomes 24/10 (not a 3-1 play)
    index = next(k for k, line in enumerate(lines) if re.match(r"\s*1\)", line))
    lines[index] = re.sub(r"(\d\d): (\S+ ?)+$", r"\1: 24/10", lines[index].rstrip())
    assert lines[index].endswith(": 24/10")
    response = _upload(login(stranger), "\n".join(lines) + "\n")
    assert response.status_code == 422
    page = response.content.decode()
    assert f"Line {index + 1}:" in page and 'data-code="illegal_move"' in page, page[page.find("upload-error") - 20:][:300]
    assert Analysis.objects.filter(source=Analysis.UPLOAD).count() == 0 and Job.objects.filter(
        params__analysis__isnull=False).count() == 1  # only the match's own analysis


def test_unreadable_and_empty_files_are_refused(stranger):
    client = login(stranger)
    response = _upload(client, " 3 point match\n\n Game 1\n bob : 0      alice : 0\n  1) 31: what is this\n")
    assert response.status_code == 422 and "Line 5:" in response.content.decode()
    assert _upload(client, "").status_code == 422
    assert client.post("/analysis/upload/", {}).status_code == 422
    assert Analysis.objects.count() == 0


def test_upload_needs_a_login(client):
    assert client.get("/analysis/upload/").status_code == 302


def test_aids_need_an_unrated_match(players):
    alice, _ = players
    with pytest.raises(ServiceError) as info:
        services.match_create(creator=alice, length=3, rated=True, aids=True)
    assert info.value.code == "aids_in_rated"
    match = services.match_create(creator=alice, length=3, aids=True)
    assert match.rated is False and match.aids is True
    assert match_dict(match)["aids"] is True and match_dict(match)["rated"] is False


def test_hints_are_refused_in_rated_play(make_table):
    table = make_table(length=3, opening=(3, 1))
    actor = table.state.actor
    response = login(table.player(actor)).get(f"/games/{table.game.pk}/hint.json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "aids_not_allowed"
    response = login(table.player(actor)).post(f"/games/{table.game.pk}/tutor.json", {"action": "roll"},
                                               content_type="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "aids_not_allowed"


def test_hint_and_tutor_in_unrated_play(make_table, client):
    table = make_table(length=3, opening=(3, 1), aids=True)
    state = table.state
    actor = state.actor
    assert state.phase == "move" and actor == "white"  # White opens with 3-1
    me = login(table.player(actor))
    hint = me.get(f"/games/{table.game.pk}/hint.json").json()
    assert hint["kind"] == "play" and hint["plays"][0]["notation"] == "8/5 6/5"
    # the opponent and spectators get no hint
    assert login(table.player("black")).get(f"/games/{table.game.pk}/hint.json").json()["error"]["code"] == \
        "not_your_turn"
    assert client.get(f"/games/{table.game.pk}/hint.json").status_code == 403
    # the tutor: a poor play warns, the best play does not
    best = hint["plays"][0]["moves"]
    poor = next(p for p in state.legal_plays() if p.to_list() != best and
                {s["from"] for s in p.to_list()} == {24})
    url = f"/games/{table.game.pk}/tutor.json"
    ok = me.post(url, {"moves": best}, content_type="application/json").json()
    assert ok["loss"] == 0 and ok["warn"] is False
    warned = me.post(url, {"moves": poor.to_list(), "threshold": "doubtful"}, content_type="application/json").json()
    assert warned["loss"] > 0 and warned["best"]["notation"] == "8/5 6/5"
    assert warned["warn"] is (warned["mark"] is not None)
    bad = me.post(url, {"moves": [{"from": 24, "to": 1}]}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_play"
    assert me.post(url, {"threshold": "awful", "action": "roll"},
                   content_type="application/json").json()["error"]["code"] == "bad_threshold"
    # nothing was played by asking
    assert table.state.phase == "move" and table.game.version == table.game.version


def test_the_game_page_shows_the_aids_to_players_and_spectators(make_table, client):
    table = make_table(length=3, aids=True)
    for viewer in (client, login(table.white)):
        page = viewer.get(f"/games/{table.game.pk}/").content.decode()
        assert 'id="aids"' in page and "Hints and tutor on" in page
    rated = make_table(length=3)
    assert "Rated" in client.get(f"/games/{rated.game.pk}/").content.decode()


def test_the_new_match_form_has_rated_and_aids(players):
    alice, _ = players
    client = login(alice)
    assert 'name="aids"' in client.get("/").content.decode()
    client.post("/matches/new/", {"length": "3", "rated": "0", "aids": "on", "cube": "on"})
    match = type(alice).objects.get(pk=alice.pk).matches_as_white.get()
    assert match.aids and not match.rated
    response = client.post("/matches/new/", {"length": "3", "rated": "1", "aids": "on"}, follow=True)
    assert "unrated matches only" in response.content.decode()
    assert alice.matches_as_white.count() == 1
    client.post("/matches/new/", {"length": "3", "rated": "0"})
    assert alice.matches_as_white.filter(rated=False, aids=False).count() == 1

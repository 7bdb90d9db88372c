"""Practice from one's own errors through the real path: the stored analysis of real games
(the recorded house-bot match, analysed at 0-ply), the pages and the answer POSTs with the
Django test client, for a member (an uploaded .mat under his name) and a guest (a match
played here)."""

import json

import pytest

from games import services
from games.analysis.game import analyse_match
from games.models import Analysis, PracticeExercise, PracticeSession
from games.selectors import practice as reads
from tests.analysis_site.conftest import login

FIXTURE = "tests/fixtures/analysis_match.json"


@pytest.fixture(scope="module")
def result():
    with open(FIXTURE) as f:
        fixture = json.load(f)
    return analyse_match(fixture["games"][:2], ply=0)  # White "casual", Black "intermediate"


@pytest.fixture
def casual(db, result):
    """A member whose uploaded .mat has him as White."""
    player = services.player_register(username="casual", password="correct horse 3")
    Analysis.objects.create(source=Analysis.UPLOAD, owner=player, depth=0, length=7, white_name="Casual",
                            black_name="intermediate", result=result)
    return player


def _own_errors(result, colour):
    losses = []
    for game in result["games"]:
        for d in game["decisions"]:
            if d["player"] != colour:
                continue
            if d["kind"] == "move":
                if d["play"] and not d["play"]["forced"] and d["play"]["loss"] > reads.THRESHOLD:
                    losses.append(d["play"]["loss"])
                if d["cube"] and (d["cube"].get("loss") or 0) > reads.THRESHOLD:
                    losses.append(d["cube"]["loss"])
            elif (d.get("loss") or 0) > reads.THRESHOLD:
                losses.append(d["loss"])
    return sorted(losses, reverse=True)


def _start(client, size=3):
    response = client.post("/practice/", {"size": str(size)})
    assert response.status_code == 302, response.content[:500]
    session = PracticeSession.objects.order_by("-pk").first()
    assert response["Location"] == f"/practice/{session.pk}/"
    return session


def _answer(client, session, exercise, choice):
    return client.post(f"/practice/{session.pk}/answer/", json.dumps({"exercise": exercise, "choice": choice}),
                       content_type="application/json")


def _page_data(client, session):
    response = client.get(f"/practice/{session.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="practice-data" type="application/json">') + len('id="practice-data" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def test_the_errors_are_the_players_own_biggest_first(casual, result):
    errors = reads.practice_errors(casual)
    assert [round(e["loss"], 5) for e in errors] == [round(x, 5) for x in _own_errors(result, "white")]
    assert errors and all(e["player"] == "white" and e["loss"] > reads.THRESHOLD for e in errors)
    assert {"play", "answer"} <= {e["kind"] for e in errors}
    play = next(e for e in errors if e["kind"] == "play")
    best = next(c for c in play["choices"] if c["key"] == play["best"])
    assert best["loss"] == 0 and best["rank"] == 1
    assert [c["notation"] for c in play["choices"]] == sorted(c["notation"] for c in play["choices"])


def test_a_session_start_answer_score_and_history(casual, result):
    client = login(casual)
    assert client.get("/practice/").status_code == 200
    session = _start(client, size=3)
    data = _page_data(client, session)
    assert data["size"] == 3 and data["answered"] == 0
    first = data["exercises"][0]
    # nothing before the answer tells which choice is best
    assert "best" not in first and all(set(c) <= {"key", "notation", "moves"} for c in first["choices"])
    stored = PracticeExercise.objects.get(pk=first["id"])
    assert stored.data["loss"] == _own_errors(result, "white")[0] == max(_own_errors(result, "white"))

    right = _answer(client, session, first["id"], stored.data["best"])
    assert right.status_code == 200
    body = right.json()
    assert body["exercise"]["correct"] is True and body["exercise"]["loss"] == 0
    assert body["exercise"]["best"] == stored.data["best"] and body["session"]["correct"] == 1

    again = _answer(client, session, first["id"], stored.data["best"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_answered"

    second = PracticeExercise.objects.get(session=session, number=2)
    if second.kind == "play":
        bad = _answer(client, session, second.pk, "zz")
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "illegal_play"
    else:
        bad = _answer(client, session, second.pk, "beaver")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_action"
    second.refresh_from_db()
    assert second.choice is None  # a refused answer changes nothing
    wrong = next(c["key"] for c in second.data["choices"] if c["key"] != second.data["best"])
    body = _answer(client, session, second.pk, wrong).json()
    assert body["exercise"]["correct"] is False and body["exercise"]["loss"] > 0
    third = PracticeExercise.objects.get(session=session, number=3)
    body = _answer(client, session, third.pk, third.data["best"]).json()
    assert body["session"]["finished"] is True and body["session"]["correct"] == 2
    session.refresh_from_db()
    assert session.finished_at is not None and session.answered == 3
    assert session.lost == pytest.approx(second.data["choices"] and reads.choice_loss(second.data, wrong))

    page = client.get("/practice/").content.decode()
    assert "2 / 3 (67%)" in page and f"/practice/{session.pk}/" in page
    assert f"<td>{round(1000 * session.lost / 3, 1)}</td>" in page  # mEMG given up per answer
    # the next session leaves out the two answered right
    later = _start(client, size=3)
    keys = set(later.exercises.values_list("key", flat=True))
    assert first and stored.key not in keys and third.key not in keys and second.key in keys


def test_refusals_for_a_wrong_session_or_exercise(casual, stranger, result):
    client = login(casual)
    session = _start(client, size=2)
    other = _start(client, size=2)
    ex = session.exercises.first()
    elsewhere = _answer(client, other, ex.pk, "a")
    assert elsewhere.status_code == 404 and elsewhere.json()["error"]["code"] == "exercise_not_found"
    intruder = _answer(login(stranger), session, ex.pk, ex.data["best"])
    assert intruder.status_code == 404 and intruder.json()["error"]["code"] == "session_not_found"
    assert login(stranger).get(f"/practice/{session.pk}/").status_code == 404
    peek = login(stranger).get(f"/practice/{session.pk}.json")
    assert peek.status_code == 404 and peek.json()["error"]["code"] == "session_not_found"
    own = client.get(f"/practice/{session.pk}.json").json()
    assert own["size"] == 2 and all("best" not in ex and "loss" not in ex for ex in own["exercises"])
    assert _answer(client, session, "x", "a").json()["error"]["code"] == "exercise_not_found"
    ex.refresh_from_db()
    assert ex.choice is None
    # a player with no analysed error is told so
    none = login(stranger).post("/practice/", {"size": "5"})
    assert none.status_code == 409 and b"no_errors" in none.content
    assert login(casual).post("/practice/", {"size": "99"}).status_code == 400
    assert PracticeSession.objects.count() == 2


def test_a_guest_practises_on_a_match_played_here(finished, result):
    match = finished.match
    guest = services.guest_create()
    type(match).objects.filter(pk=match.pk).update(black=guest)  # the guest played Black
    Analysis.objects.filter(match=match).update(result=result)
    client = login(guest)
    session = _start(client, size=2)
    data = _page_data(client, session)
    assert all(ex["player"] == "black" for ex in data["exercises"])
    ex = session.exercises.first()
    assert ex.data["loss"] == max(_own_errors(result, "black"))
    assert _answer(client, session, ex.pk, ex.data["best"]).json()["exercise"]["correct"] is True


def test_cube_choice_losses():
    ex = {"kind": "cube", "cube": {"nd": 0.4, "dt": 0.7, "dp": 1.0}}
    assert reads.choice_loss(ex, "no_double") == pytest.approx(0.3)
    assert reads.choice_loss(ex, "double") == 0
    answer = {"kind": "answer", "cube": {"nd": 0.9, "dt": 1.2, "dp": 1.0}}
    assert reads.choice_loss(answer, "take") == pytest.approx(0.2) and reads.choice_loss(answer, "pass") == 0
    assert reads.choice_loss(answer, "double") is None


def test_the_links_to_practice(casual):
    client = login(casual)
    analysis = Analysis.objects.get(owner=casual)
    assert 'href="/practice/"' in client.get(f"/analysis/{analysis.pk}/").content.decode()
    assert 'id="nav-practice"' in client.get("/practice/").content.decode()
    assert client.get("/practice/", follow=False).status_code == 200
    from django.test import Client
    assert Client().get("/practice/").status_code == 302  # a visitor logs in (or plays as a guest) first


def test_a_wrong_double_is_a_cube_exercise(db, result):
    """The recorded match's double (right there) made too good to double: a cube exercise
    whose best is no double, answered through the page's POST."""
    import copy

    changed = copy.deepcopy(result)
    double = next(d for g in changed["games"] for d in g["decisions"] if d["kind"] == "double")
    double["cube"].update(nd=1.25, best="no_double", tooGood=True)
    double["loss"] = 0.25
    player = services.player_register(username="doubler", password="correct horse 3")
    names = {"white_name": "doubler", "black_name": "x"} if double["player"] == "white" else \
        {"white_name": "x", "black_name": "doubler"}
    Analysis.objects.create(source=Analysis.UPLOAD, owner=player, depth=0, length=7, result=changed, **names)
    cube = next(e for e in reads.practice_errors(player) if e["kind"] == "cube")
    assert cube["best"] == "no_double" and cube["played"] == "double" and cube["loss"] == 0.25
    assert cube["dice"] is None and [c["key"] for c in cube["choices"]] == ["no_double", "double"]
    client = login(player)
    session = _start(client, size=20)
    ex = session.exercises.get(kind="cube")
    refused = _answer(client, session, ex.pk, "take")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_action"
    body = _answer(client, session, ex.pk, "double").json()["exercise"]
    assert body["correct"] is False and body["loss"] == pytest.approx(0.25) and body["best"] == "no_double"


def test_an_uploaded_mat_under_another_name_on_the_side_chosen(db, result, auto_analysis,
                                                               django_capture_on_commit_callbacks):
    """A .mat whose names are not the uploader's: the side chosen at upload says whose errors
    are the uploader's (the file is replayed and analysed by the job, as any upload)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.interchange.mat_write import write_mat

    with open(FIXTURE) as f:
        fixture = json.load(f)
    text = write_mat(length=fixture["length"], black_name="intermediate", white_name="casual",
                     games=fixture["games"][:2])
    player = services.player_register(username="paula", password="correct horse 3")
    client = login(player)
    bad = client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", text.encode()), "depth": "0",
                                            "side": "red"})
    assert bad.status_code == 400 and b"bad_side" in bad.content and not Analysis.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", text.encode()),
                                                     "depth": "0", "side": "black"})
    assert response.status_code == 302
    analysis = Analysis.objects.get(owner=player)
    assert analysis.owner_side == "black" and analysis.result is not None
    errors = reads.practice_errors(player)
    assert errors and all(e["player"] == "black" for e in errors)
    assert [e["loss"] for e in errors] == pytest.approx(_own_errors(analysis.result, "black"))
    session = _start(client, size=2)
    assert session.exercises.count() == 2
    # "none": an upload of others' match gives no exercise
    Analysis.objects.filter(pk=analysis.pk).update(owner_side="none")
    assert reads.practice_errors(player) == []

"""Analysis on the site: the automatic analysis at match end in the job runner, the JSON,
re-analysis at another depth, failures with their reason and retries, visibility."""

import pytest

from django.utils import translation

from games.selectors import analysis as analysis_reads
from games.selectors.jobs import job_line
from games import services
from games.errors import ServiceError
from games.models import Analysis, Job
from games.services import analysis as service

from tests.analysis_site.conftest import finish_match, login

pytestmark = pytest.mark.django_db


def test_a_finished_match_is_analysed_automatically_with_progress(finished):
    analysis = Analysis.objects.get(match_id=finished.match_id)
    assert analysis.depth == 0 and analysis.owner is None
    assert analysis.job.kind == "analysis" and analysis.job.status == Job.DONE
    assert analysis.job.progress == 1.0
    # the line is kept as marked English with its values apart, and worded when shown
    assert analysis.job.message == "Games analysed: %(games)s, at %(depth)s-ply, in %(seconds)s s"
    assert analysis.job.message_params["games"] == 1 and analysis.job.message_params["depth"] == 0
    with translation.override("en"):
        assert job_line(analysis.job).startswith("Games analysed: 1, at 0-ply, in ")
    result = analysis.result
    assert result["format"] == "analysis/1" and result["engine"]["ply"] == 0
    assert len(result["games"]) == 1
    moves = [d for d in result["games"][0]["decisions"] if d["kind"] == "move"]
    assert moves and all("position" in d and "dice" in d for d in moves)
    assert analysis.white_decisions == result["stats"]["white"]["overall"]["decisions"]


def test_the_json_follows_the_document(finished, client):
    alice, bob = finished.white, finished.black
    data = login(alice).get(f"/matches/{finished.match_id}/analysis.json").json()
    assert set(data) == {"format", "id", "source", "match", "players", "matchLength", "depth", "status", "job",
                         "viewer", "mayReanalyse", "mayCancel", "analyses", "createdAt", "finishedAt", "analysis"}
    assert data["format"] == "site-analysis/1" and data["source"] == "match"
    assert data["status"] == "done" and data["viewer"] == "white" and data["mayReanalyse"] is True
    assert data["players"]["white"] == {"name": "alice", "id": alice.pk}
    assert data["analysis"]["stats"]["white"]["overall"]["decisions"] >= 0
    # a spectator sees it too (a public match), but may not re-analyse
    anon = client.get(f"/matches/{finished.match_id}/analysis.json").json()
    assert anon["viewer"] is None and anon["mayReanalyse"] is False and anon["status"] == "done"


def test_a_private_match_s_analysis_stays_private(make_table, auto_analysis, django_capture_on_commit_callbacks,
                                                  stranger, client):
    table = make_table(length=1, spectators_allowed=False)
    finish_match(table, django_capture_on_commit_callbacks)
    type(table.match).objects.filter(pk=table.match_id).update(private=True)
    url = f"/matches/{table.match_id}/analysis.json"
    assert login(stranger).get(url).status_code == 404
    assert client.get(url).status_code == 404
    analysis = Analysis.objects.get(match_id=table.match_id)
    assert login(stranger).get(f"/analysis/{analysis.pk}.json").status_code == 404
    assert login(stranger).get(f"/matches/{table.match_id}/analysis/").status_code == 404
    assert login(table.black).get(url).status_code == 200


def test_players_re_analyse_at_another_depth_and_others_may_not(finished, stranger, django_capture_on_commit_callbacks):
    url = f"/matches/{finished.match_id}/analysis/"
    response = login(stranger).post(url, {"depth": "1"})
    assert response.status_code == 403 and Analysis.objects.count() == 1  # a spectator: refused, nothing stored
    assert login(finished.white).post(url, {"depth": "7"}).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = login(finished.black).post(url, {"depth": "1"})
    assert response.status_code == 302
    second = Analysis.objects.get(match_id=finished.match_id, depth=1)
    assert response["Location"] == f"/analysis/{second.pk}/"
    assert second.owner == finished.black and second.job.status == Job.DONE and second.result["engine"]["ply"] == 1
    data = login(finished.white).get(f"/analysis/{second.pk}.json").json()
    assert data["depth"] == 1 and [a["depth"] for a in data["analyses"]] == [0, 1]
    # asking again for a depth already analysed returns that analysis
    again = service.analysis_request(match_id=finished.match_id, player=finished.white, depth=1)
    assert again.pk == second.pk


def test_an_unfinished_match_is_not_analysed(make_table):
    table = make_table(length=3)
    with pytest.raises(ServiceError) as info:
        service.analysis_request(match_id=table.match_id, player=table.white, depth=0)
    assert info.value.code == "match_not_over"
    response = login(table.white).get(f"/matches/{table.match_id}/analysis.json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "match_not_over"


def test_a_failed_jobs_reason_keeps_its_code_and_reads_in_each_readers_language(
        make_table, auto_analysis, django_capture_on_commit_callbacks, monkeypatch):
    """The worker fails the job under a Turkish request's language (or none at all): the reason
    is kept as its code and marked English, and each reader reads it in their own language
    (the analysis JSON follows the request's Accept-Language)."""
    import games.analysis as core
    from games.analysis import AnalysisError

    def broken(*args, **kwargs):
        raise AnalysisError("bad_events", "A game's event log starts with game_start.")

    monkeypatch.setattr(core, "analyse_match", broken)
    table = make_table(length=1)
    with translation.override("tr"):
        finish_match(table, django_capture_on_commit_callbacks)
    job = Analysis.objects.get(match_id=table.match_id).job
    assert (job.status, job.error_code, job.error) == (Job.FAILED, "bad_events", "A game's event log starts with game_start.")
    client = login(table.white)
    read = {code: client.get(f"/matches/{table.match_id}/analysis.json", HTTP_ACCEPT_LANGUAGE=code).json()["job"]
            for code in ("de", "en")}
    assert read["de"]["errorCode"] == read["en"]["errorCode"] == "bad_events"
    assert read["de"]["error"] == "Das Ereignisprotokoll eines Spiels beginnt mit game_start."
    assert read["en"]["error"] == "A game's event log starts with game_start."


def test_a_failed_job_says_why_and_can_be_retried(make_table, auto_analysis, django_capture_on_commit_callbacks,
                                                  monkeypatch):
    import games.analysis as core

    real = core.analyse_match

    def broken(*args, **kwargs):
        raise RuntimeError("the evaluator is out of memory")

    monkeypatch.setattr(core, "analyse_match", broken)
    table = make_table(length=1)
    finish_match(table, django_capture_on_commit_callbacks)
    analysis = Analysis.objects.get(match_id=table.match_id)
    assert analysis.job.status == Job.FAILED and analysis.result is None
    data = login(table.white).get(f"/matches/{table.match_id}/analysis.json").json()
    assert data["status"] == "failed" and "out of memory" in data["job"]["error"]
    monkeypatch.setattr(core, "analyse_match", real)
    # a stranger may not retry; a player may
    assert login(services.player_register(username="dave", password="x" * 12)).post(
        f"/analysis/{analysis.pk}/retry/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = login(table.white).post(f"/analysis/{analysis.pk}/retry/")
    assert response.status_code == 302
    analysis.refresh_from_db()
    assert analysis.job.status == Job.DONE and analysis.result is not None


def test_pr_history_leaves_out_short_and_abandoned_matches(finished):
    analysis = Analysis.objects.get(match_id=finished.match_id)
    history = analysis_reads.pr_history(finished.white, finished.white.user)
    decisions = analysis.white_decisions
    if decisions >= analysis_reads.MIN_DECISIONS:
        assert [m["match"] for m in history["matches"]] == [finished.match_id]
        assert history["average"] == analysis.white_pr
    else:
        assert history["matches"] == [] and history["average"] is None
    Analysis.objects.filter(pk=analysis.pk).update(white_decisions=analysis_reads.MIN_DECISIONS, white_pr=4.5)
    assert analysis_reads.pr_history(finished.white, finished.white.user)["average"] == 4.5
    Analysis.objects.filter(pk=analysis.pk).update(white_decisions=analysis_reads.MIN_DECISIONS - 1)
    assert analysis_reads.pr_history(finished.white, finished.white.user)["matches"] == []
    Analysis.objects.filter(pk=analysis.pk).update(white_decisions=50)
    type(finished.match).objects.filter(pk=finished.match_id).update(end_reason="abandoned")
    assert analysis_reads.pr_history(finished.white, finished.white.user)["matches"] == []
    assert "abandoned" in analysis_reads.pr_history(finished.white, finished.white.user)["rule"]


def test_the_profile_shows_the_pr_history_and_its_rule(finished, client):
    analysis = Analysis.objects.get(match_id=finished.match_id)
    Analysis.objects.filter(pk=analysis.pk).update(white_decisions=40, white_pr=7.25)
    page = client.get(f"/players/{finished.white.pk}/").content.decode()
    assert 'id="pr-average">7.25<' in page and "abandoned" in page
    assert f"/analysis/{analysis.pk}/" in page and f"/matches/{finished.match_id}/analysis/" in page


@pytest.mark.parametrize("private", [False, True])
def test_the_pr_history_of_a_private_match_is_shown_only_to_who_may_see_the_match(finished, private):
    """Finding: the profile's PR table listed private matches to anyone (visibility rule)."""
    from django.test import Client
    from tests.security.conftest import staff_with

    analysis = Analysis.objects.get(match_id=finished.match_id)
    Analysis.objects.filter(pk=analysis.pk).update(white_decisions=40, white_pr=7.25)
    type(finished.match).objects.filter(pk=finished.match_id).update(private=private)
    link = f"/analysis/{analysis.pk}/".encode()
    viewers = {"anonymous": Client(), "stranger": login(services.player_register(username="dave", password="x" * 12)),
               "staff_without_permission": Client(), "player": login(finished.white),
               "opponent": login(finished.black), "staff_with_permission": Client()}
    viewers["staff_without_permission"].force_login(staff_with("view_match", "view_analysis", username="s1"))
    viewers["staff_with_permission"].force_login(staff_with("view_any_match", username="s2"))
    for who, client in viewers.items():
        page = client.get(f"/players/{finished.white.pk}/").content
        sees = not private or who in ("player", "opponent", "staff_with_permission")
        assert (link in page) == sees, who
        assert (b'id="pr-average">7.25<' in page) == sees, who


def test_a_match_left_in_the_middle_of_a_game_is_analysed_up_to_there(make_table, auto_analysis,
                                                                      django_capture_on_commit_callbacks):
    table = make_table(length=3, opening=(3, 1))
    table.play_turns(4)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_leave(match_id=table.match_id, player=table.black)
    analysis = Analysis.objects.get(match_id=table.match_id)
    assert analysis.job.status == Job.DONE, analysis.job.error
    decisions = analysis.result["games"][0]["decisions"]
    assert [d["kind"] for d in decisions][:4] == ["move"] * 4


def test_a_match_left_before_any_move_is_not_analysed(make_table, auto_analysis, django_capture_on_commit_callbacks):
    table = make_table(length=3, opening=(3, 1))
    with django_capture_on_commit_callbacks(execute=True):
        services.match_leave(match_id=table.match_id, player=table.black)
    assert table.match.status == "finished" and not Analysis.objects.filter(match_id=table.match_id).exists()


@pytest.mark.postgres
def test_asking_for_an_analysis_locks_the_match_on_postgresql(finished, django_capture_on_commit_callbacks):
    """The PostgreSQL pass runs this on the real database (a lock on a join with Black's
    nullable seat is refused there, not on SQLite)."""
    with django_capture_on_commit_callbacks(execute=True):
        analysis = service.analysis_request(match_id=finished.match_id, player=finished.black, depth=1)
    assert analysis.depth == 1 and Analysis.objects.get(pk=analysis.pk).job.status == Job.DONE


def test_the_page_of_a_match_without_analysis_lets_its_players_ask(finished, django_capture_on_commit_callbacks):
    Analysis.objects.all().delete()
    response = login(finished.white).get(f"/matches/{finished.match_id}/analysis.json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "analysis_not_found"
    page = login(finished.white).get(f"/matches/{finished.match_id}/analysis/").content.decode()
    assert 'id="notice"' in page and 'id="reanalyse"' in page
    with django_capture_on_commit_callbacks(execute=True):
        login(finished.white).post(f"/matches/{finished.match_id}/analysis/", {"depth": "0"})
    assert login(finished.white).get(f"/matches/{finished.match_id}/analysis.json").json()["status"] == "done"

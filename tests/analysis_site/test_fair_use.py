"""Fair use of the long workers and of hints (docs/SECURITY.md, "Fair use"): a player's quota
of analyses queued or running, the upload limit, the same work done once and shared, a
player's own request before automatic work, the job time limit and cancel, and the hints'
limit, budget and bounded pool."""

import threading
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Analysis, Job
from games.selectors.export import match_to_mat
from games.services import jobs
from games.tasks.long import JOB_KINDS, run_job

from tests.analysis_site.conftest import login

pytestmark = pytest.mark.django_db


def _upload(client, text, depth="0"):
    return client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", text.encode()), "depth": depth})


def _ask(client, match_id, depth):
    return client.post(f"/matches/{match_id}/analysis/", {"depth": str(depth)})


@pytest.fixture
def held(monkeypatch):
    """Jobs are queued but no worker takes them: every enqueue is recorded (job, priority)."""
    queued = []
    monkeypatch.setattr(jobs, "_enqueue", lambda job_id, priority: queued.append((job_id, priority)))
    return queued


def test_a_player_has_at_most_n_analyses_queued_or_running(finished, held, settings,
                                                           django_capture_on_commit_callbacks):
    settings.GAMES_JOBS_PER_USER = 2
    alice = login(finished.white)
    with django_capture_on_commit_callbacks(execute=True):
        assert _ask(alice, finished.match_id, 1).status_code == 302
        assert _ask(alice, finished.match_id, 2).status_code == 302
        refused = _ask(alice, finished.match_id, 3)
    assert refused.status_code == 429
    page = refused.content.decode()
    assert 'data-code="too_many_jobs"' in page and "A slot frees when one of them finishes" in page
    assert not Analysis.objects.filter(match_id=finished.match_id, depth=3).exists()
    # asking again for a depth already queued is no new job: answered, not refused
    assert _ask(alice, finished.match_id, 1).status_code == 302
    # the other player is not affected by alice's quota
    with django_capture_on_commit_callbacks(execute=True):
        assert _ask(login(finished.black), finished.match_id, 3).status_code == 302
    # a slot frees when one ends
    first = Analysis.objects.get(match_id=finished.match_id, depth=1).job
    assert run_job.call_local(first.pk) == Job.DONE
    finished.match.analyses.filter(depth=3).delete()
    with django_capture_on_commit_callbacks(execute=True):
        assert _ask(alice, finished.match_id, 3).status_code == 302
    assert Job.objects.filter(created_by=finished.white, status__in=Job.ACTIVE).count() == 2


def test_uploads_are_limited_per_hour(finished, stranger, held, settings):
    settings.GAMES_UPLOAD_LIMIT = 2
    settings.GAMES_UPLOAD_WINDOW = 10.0 ** 9
    me = login(stranger)
    text = match_to_mat(finished.match)
    assert _upload(me, text + "\n").status_code == 302
    assert _upload(me, text + "\n\n").status_code == 302
    refused = _upload(me, text + "\n\n\n")
    assert refused.status_code == 429 and 'data-code="upload_limit"' in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert Analysis.objects.filter(owner=stranger).count() == 2


def test_the_same_file_at_the_same_depth_is_analysed_once_and_shared(finished, stranger, held, players,
                                                                      django_capture_on_commit_callbacks):
    text = match_to_mat(finished.match)
    me = login(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        first = _upload(me, text)
        again = _upload(me, text)
    assert first["Location"] == again["Location"]  # the same analysis, not a second one
    mine = Analysis.objects.get(owner=stranger)
    # another player's upload of the same file shares the job on its way ...
    with django_capture_on_commit_callbacks(execute=True):
        _upload(login(finished.white), text)
    theirs = Analysis.objects.get(owner=finished.white, source=Analysis.UPLOAD)
    assert theirs.job_id == mine.job_id and Job.objects.filter(kind="analysis", key__startswith="upload:").count() == 1
    assert len(held) == 1
    run_job.call_local(mine.job_id)
    for analysis in (mine, theirs):
        analysis.refresh_from_db()
        assert analysis.result is not None and analysis.white_pr is not None
    # ... and, once done, its result: no new job
    with django_capture_on_commit_callbacks(execute=True):
        _upload(login(finished.black), text)
    late = Analysis.objects.get(owner=finished.black, source=Analysis.UPLOAD)
    assert late.result == mine.result and len(held) == 1
    # another depth is another job
    with django_capture_on_commit_callbacks(execute=True):
        _upload(me, text, depth="1")
    assert len(held) == 2


def test_a_players_own_request_goes_before_automatic_analyses(finished, held, settings,
                                                              django_capture_on_commit_callbacks):
    from games.services.analysis import analysis_after_match

    with django_capture_on_commit_callbacks(execute=True):
        auto = analysis_after_match(finished.match)  # another automatic analysis, at depth 0
    assert held[-1] == (auto.job_id, jobs.PRIORITY_AUTO)
    with django_capture_on_commit_callbacks(execute=True):
        _ask(login(finished.white), finished.match_id, 2)
    own = Analysis.objects.get(match_id=finished.match_id, depth=2)
    assert held[-1] == (own.job_id, jobs.PRIORITY_OWN) and jobs.PRIORITY_OWN > jobs.PRIORITY_AUTO
    # asking for the depth of a still-queued automatic analysis moves it up the queue
    settings.GAMES_ANALYSIS_DEPTH = 1
    with django_capture_on_commit_callbacks(execute=True):
        waiting = analysis_after_match(finished.match)
        _ask(login(finished.black), finished.match_id, 1)
    assert held[-1] == (waiting.job_id, jobs.PRIORITY_OWN)


def test_huey_takes_the_higher_priority_first(tmp_path):
    """The long queue's classes order by priority (what the two priorities rely on)."""
    from huey import SqliteHuey

    huey = SqliteHuey("t", filename=str(tmp_path / "q"))
    seen = []
    task = huey.task()(lambda n: seen.append(n))
    task("auto", priority=jobs.PRIORITY_AUTO)
    task("own", priority=jobs.PRIORITY_OWN)
    while (message := huey.dequeue()) is not None:
        huey.execute(message)
    assert seen == ["own", "auto"]


def test_a_job_over_its_time_limit_is_stopped_and_says_so(finished, stranger, held, settings,
                                                          django_capture_on_commit_callbacks):
    settings.GAMES_JOB_TIME_LIMIT = 0.0
    me = login(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        _upload(me, match_to_mat(finished.match))
    analysis = Analysis.objects.get(owner=stranger)
    assert run_job.call_local(analysis.job_id) == Job.TIMED_OUT
    data = me.get(f"/analysis/{analysis.pk}.json").json()
    assert data["status"] == "timed_out" and "time limit of 0 s" in data["job"]["error"]
    assert data["analysis"] is None
    # it may be queued again
    settings.GAMES_JOB_TIME_LIMIT = 600.0
    with django_capture_on_commit_callbacks(execute=True):
        assert me.post(f"/analysis/{analysis.pk}/retry/").status_code == 302
    assert run_job.call_local(analysis.job_id) == Job.DONE


def test_the_player_who_asked_cancels_a_queued_or_running_analysis(finished, stranger, held, monkeypatch,
                                                                    django_capture_on_commit_callbacks):
    me = login(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        _upload(me, match_to_mat(finished.match))
    analysis = Analysis.objects.get(owner=stranger)
    assert me.get(f"/analysis/{analysis.pk}.json").json()["mayCancel"] is True
    # not someone else's to cancel (they cannot even see it)
    assert login(finished.white).post(f"/analysis/{analysis.pk}/cancel/").status_code == 404
    # queued: cancelled, and no worker will start it
    assert me.post(f"/analysis/{analysis.pk}/cancel/").status_code == 302
    assert me.get(f"/analysis/{analysis.pk}.json").json()["status"] == "cancelled"
    assert run_job.call_local(analysis.job_id) is None
    again = me.post(f"/analysis/{analysis.pk}/cancel/", HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "job_not_active"
    # running: it stops at its next report of progress
    with django_capture_on_commit_callbacks(execute=True):
        me.post(f"/analysis/{analysis.pk}/retry/")

    def cancelled_while_running(job, report):
        report(0.1, "working")
        assert me.post(f"/analysis/{analysis.pk}/cancel/").status_code == 302
        report(0.2, "still working")
        raise AssertionError("the job went on after it was cancelled")

    monkeypatch.setitem(JOB_KINDS, "analysis", cancelled_while_running)
    assert run_job.call_local(analysis.job_id) == Job.CANCELLED
    assert Job.objects.get(pk=analysis.job_id).status == Job.CANCELLED


def test_the_automatic_analysis_is_nobodys_to_cancel(finished):
    analysis = Analysis.objects.get(match_id=finished.match_id)
    Job.objects.filter(pk=analysis.job_id).update(status=Job.QUEUED)
    response = login(finished.white).post(f"/analysis/{analysis.pk}/cancel/", HTTP_ACCEPT="application/json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_owner"


# -- hints ---------------------------------------------------------------------------------------


def test_hints_are_limited_per_player(make_table, settings):
    settings.GAMES_HINT_LIMIT = 2
    settings.GAMES_HINT_WINDOW = 10.0 ** 9  # one window for the whole test (fixed windows)
    table = make_table(length=3, opening=(3, 1), aids=True)
    me = login(table.player(table.state.actor))
    url = f"/games/{table.game.pk}/hint.json"
    assert me.get(url).status_code == 200
    assert me.post(f"/games/{table.game.pk}/tutor.json", {"action": "roll"},
                   content_type="application/json").status_code in (200, 409)  # the tutor counts too
    refused = me.get(url)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "hint_limit"
    assert int(refused["Retry-After"]) > 0


def test_a_hint_has_a_time_budget_and_a_bounded_pool(make_table, settings, monkeypatch):
    """A hint that does not end within GAMES_HINT_BUDGET is given up (503 hint_timeout); it
    keeps its thread until it ends, so with every hint thread taken the next is refused at
    once (503 hints_busy), never queued."""
    import games.analysis

    settings.GAMES_HINT_THREADS = 1
    settings.GAMES_HINT_BUDGET = 0.2
    release, started = threading.Event(), threading.Event()
    real = games.analysis.hint

    def stuck_hint(*args, **kwargs):
        started.set()
        release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(games.analysis, "hint", stuck_hint)
    table = make_table(length=3, opening=(3, 1), aids=True)
    me = login(table.player(table.state.actor))
    url = f"/games/{table.game.pk}/hint.json"
    try:
        slow = me.get(url)
        assert slow.status_code == 503 and slow.json()["error"]["code"] == "hint_timeout"
        assert started.wait(30)  # the stuck hint holds the only hint thread
        busy = me.get(url)
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "hints_busy"
    finally:
        release.set()
    monkeypatch.setattr(games.analysis, "hint", real)
    deadline = time.monotonic() + 30
    while (response := me.get(url)).status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.05)  # a bounded poll: the released hint gives its thread back
    assert response.status_code == 200 and response.json()["kind"] == "play"


def test_automatic_analyses_leave_a_long_thread_to_players_own_requests(finished, held, settings,
                                                                        django_capture_on_commit_callbacks):
    """With GAMES_AUTO_JOBS_AT_ONCE automatic jobs running, another automatic job taken by a
    long thread is put back (it waits its turn); a player's own request runs at once."""
    from games.services.analysis import analysis_after_match

    settings.GAMES_AUTO_JOBS_AT_ONCE = 1
    with django_capture_on_commit_callbacks(execute=True):
        running = analysis_after_match(finished.match)
        waiting = analysis_after_match(finished.match)
        _ask(login(finished.white), finished.match_id, 1)
    Job.objects.filter(pk=running.job_id).update(status=Job.RUNNING)
    assert run_job.call_local(waiting.job_id) == "waiting"
    assert Job.objects.get(pk=waiting.job_id).status == Job.QUEUED
    own = Analysis.objects.get(match_id=finished.match_id, depth=1)
    assert run_job.call_local(own.job_id) == Job.DONE
    Job.objects.filter(pk=running.job_id).update(status=Job.DONE)
    assert run_job.call_local(waiting.job_id) == Job.DONE
    settings.GAMES_AUTO_JOBS_AT_ONCE = 0  # no cap
    with django_capture_on_commit_callbacks(execute=True):
        first, second = analysis_after_match(finished.match), analysis_after_match(finished.match)
    Job.objects.filter(pk=first.job_id).update(status=Job.RUNNING)
    assert run_job.call_local(second.job_id) == Job.DONE


def test_waiting_jobs_are_queued_again_only_when_the_long_queue_lost_its_entries(
        finished, held, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    job = Analysis.objects.get(match_id=finished.match_id).job
    Job.objects.filter(pk=job.pk).update(status=Job.QUEUED, started_at=None,
                                         created_at=timezone.now() - timedelta(hours=1))
    held.clear()
    with django_capture_on_commit_callbacks(execute=True):
        jobs.jobs_heal(requeue_waiting=False)
    assert held == []  # the queue holds entries: no duplicate
    with django_capture_on_commit_callbacks(execute=True):
        jobs.jobs_heal(requeue_waiting=True)
    assert held == [(job.pk, jobs.PRIORITY_AUTO)]

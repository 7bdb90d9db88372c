"""Text worded in the reader's language when it is read, not when it was made: the analysis
core's and the match files' refusals (pure packages: ``gettext_noop`` and ``params``, as the
engine's), and a long job's progress line (stored as marked English with its values apart,
worded by ``games.selectors.jobs.job_line`` for whoever looks)."""

import pytest
from django.utils import translation

from games.engine import errors as engine_errors
from games.engine.errors import Message, gettext_noop
from games.interchange.mat_read import MatImportError, import_mat

BAD_PLAY = """ 3 point match

 Game 1
 bob : 0                        alice : 0
  1)                             31: 13/7
"""
TWO_WHITES = """ 3 point match

 Game 1
 bob : 0                        alice : 0
  1)                             31: 8/5 6/5
  2)  Doubles => 2
  3)  Takes
"""


def _refusal(text) -> MatImportError:
    with pytest.raises(MatImportError) as exc:
        import_mat(text)
    return exc.value


def test_a_mat_files_refusal_is_worded_in_the_language_active_when_it_is_read():
    exc = _refusal(BAD_PLAY)  # the engine's reason, inside the file's own sentence
    assert exc.code == "illegal_move" and exc.line == 5
    with translation.override("en"):
        english = exc.message
    with translation.override("de"):
        german = exc.message
    assert english.startswith("31: 13/7: ") and german.startswith("31: 13/7: ") and german != english


def test_every_refusal_of_the_pure_packages_goes_through_the_translation(monkeypatch):
    """Their own texts (not in the catalogues yet): the marked template is what is translated,
    and a value that is a word (the side to act) is translated with it."""
    monkeypatch.setattr(engine_errors, "translate", lambda text: f"<{text}>")
    exc = _refusal(TWO_WHITES)
    assert exc.code == "illegal_action" and exc.message == "<<White> is the one to act here.>"
    assert str(exc) == "line 7: White is the one to act here."  # the log's line stays English
    from games.analysis import AnalysisError
    from games.interchange.mat_write import NotExportable

    error = AnalysisError("bad_ply", gettext_noop("Analysis depth must be one of %(depths)s."), params={"depths": "0, 1"})
    assert error.message == "<Analysis depth must be one of 0, 1.>" and error.as_dict()["message"] == error.message
    assert str(NotExportable(gettext_noop("Game %(game)s was decided by the last-roll rule."), params={"game": 2})) \
        == "<Game %(game)s was decided by the last-roll rule.>".replace("%(game)s", "2")


def test_a_translation_that_lost_a_placeholder_falls_back_to_the_english(monkeypatch):
    monkeypatch.setattr(engine_errors, "translate", lambda text: "Broken %(nope)s")
    assert Message(gettext_noop("decision %(decision)s of %(decisions)s"), {"decision": 1, "decisions": 9}).worded \
        == "decision 1 of 9"


@pytest.mark.django_db
def test_a_jobs_progress_line_is_stored_marked_and_worded_for_each_reader():
    from games.models import Job
    from games.selectors.jobs import job_dict, job_line
    from games.services import jobs

    job = jobs.job_start(kind="analysis", key="words:1")
    assert jobs.job_begin(job.pk) is not None
    # a line with a value that is a word: stored as the template and its values
    assert jobs.job_progress(job.pk, 0.5, Message(gettext_noop("%(side)s to play"), {"side": "White"}))
    job = Job.objects.get(pk=job.pk)
    assert (job.message, job.message_params) == ("%(side)s to play", {"side": "White"})
    with translation.override("en"):
        assert job_dict(job)["message"] == "White to play"
    # worded when shown: a line from the catalogue reads in the reader's language
    Job.objects.filter(pk=job.pk).update(message="White", message_params={})
    job.refresh_from_db()
    with translation.override("de"):
        assert job_line(job) == "Weiß"
    with translation.override("ar"):
        assert job_line(job) == "الأبيض"
    # a plain line (an older row, or a job kind without values) is shown as it is
    jobs.job_progress(job.pk, 0.6, "step two")
    job.refresh_from_db()
    assert (job.message, job.message_params, job_line(job)) == ("step two", {}, "step two")
    jobs.job_done(job.pk)
    job.refresh_from_db()
    assert job.message == jobs.DONE == "Done"


@pytest.mark.django_db
def test_the_upload_page_shows_a_files_refusal_in_the_readers_language():
    """The .mat upload's refusal on the page: the reason in the visitor's language (German here:
    the engine's part of it is in the catalogues), the code and the line unchanged."""
    import html

    from django.core.files.uploadedfile import SimpleUploadedFile

    from games import services
    from tests.analysis_site.conftest import login

    client = login(services.player_register(username="uwe", password=None))
    pages = {}
    for code in ("en", "de"):
        response = client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", BAD_PLAY.encode())},
                               HTTP_ACCEPT_LANGUAGE=code)
        assert response.status_code == 422
        pages[code] = html.unescape(response.content.decode())
    with translation.override("de"):
        german = _refusal(BAD_PLAY).message
    with translation.override("en"):
        english = _refusal(BAD_PLAY).message
    assert german in pages["de"] and english not in pages["de"] and english in pages["en"]
    assert 'data-code="illegal_move"' in pages["de"] and 'data-line="5"' in pages["de"]


@pytest.mark.django_db
def test_why_a_job_ended_keeps_its_code_and_is_worded_for_each_reader(monkeypatch):
    """A crash, the time limit and a lost worker: each a stable code and a marked line with its
    values apart, worded when read (the worker that wrote it has no reader's language)."""
    from django.utils import timezone

    from games.models import Job
    from games.selectors.jobs import job_dict, job_error
    from games.services import jobs

    def failed_with(exc):
        job = jobs.job_start(kind="analysis", key=f"fail:{type(exc).__name__}")
        jobs.job_begin(job.pk)
        with translation.override("tr"):
            jobs.job_failed(job.pk, *jobs.failure_of(exc))
        return Job.objects.get(pk=job.pk)

    crashed = failed_with(RuntimeError("out of memory"))
    assert (crashed.error_code, crashed.error, crashed.error_params) == (
        "job_crashed", jobs.JOB_CRASHED, {"detail": "RuntimeError: out of memory"})
    assert len(failed_with(RuntimeError("x" * 5000)).error_params["detail"]) == 1000  # a long text is cut
    refused = failed_with(engine_errors.IllegalPlay("blocked_point", gettext_noop("Point %(point)s is blocked."),
                                                    params={"point": 6}))
    assert (refused.error_code, refused.error_params) == ("blocked_point", {"point": 6})
    with translation.override("de"):
        assert job_dict(refused)["error"] == engine_errors.IllegalPlay(
            "blocked_point", gettext_noop("Point %(point)s is blocked."), params={"point": 6}).message
        assert job_dict(refused)["errorCode"] == "blocked_point"
    with translation.override("en"):
        assert job_error(refused) == "Point 6 is blocked."
        assert job_error(crashed) == "The job stopped on an unexpected error (RuntimeError: out of memory)."
    # a value that is itself a marked word is worded with the line
    side = failed_with(engine_errors.IllegalAction("wrong_side", gettext_noop("%(side)s is the one to act here."),
                                                   params={"side": Message(gettext_noop("White"))}))
    assert side.error_params == {"side": {"template": "White", "params": {}}}
    monkeypatch.setattr(engine_errors, "translate", lambda text: f"<{text}>")
    assert job_error(side) == "<<White> is the one to act here.>"
    assert job_error(crashed) == "<The job stopped on an unexpected error (RuntimeError: out of memory).>"
    # the time limit and a worker lost too often
    job = jobs.job_start(kind="analysis", key="fail:time")
    jobs.job_begin(job.pk)
    jobs.job_stopped(job.pk, Job.TIMED_OUT)
    job.refresh_from_db()
    assert (job.error_code, job.error, job.error_params) == ("job_timed_out", jobs.JOB_TIMED_OUT,
                                                             {"seconds": round(jobs.time_limit())})
    assert job_error(job).startswith("<The job ran for more than its time limit of ")
    # a worker lost too often (no heartbeat)
    lost = jobs.job_start(kind="analysis", key="fail:lost")
    jobs.job_begin(lost.pk)
    Job.objects.filter(pk=lost.pk).update(attempts=jobs.MAX_ATTEMPTS,
                                          heartbeat_at=timezone.now() - jobs.STALE_AFTER * 2)
    assert jobs.jobs_heal(requeue_waiting=False) == 1
    lost.refresh_from_db()
    assert (lost.status, lost.error_code, lost.error_params) == (Job.FAILED, "worker_lost",
                                                                 {"attempts": jobs.MAX_ATTEMPTS})
    # queued again: no reason left
    job = jobs.job_retry(job_id=job.pk)
    assert (job.error, job.error_code, job.error_params, job_dict(job)["error"]) == ("", "", {}, None)


@pytest.mark.django_db
def test_a_lobby_broadcast_is_not_worded_in_the_language_of_whoever_caused_it():
    """A lobby_update reaches every lobby: its time control's label is in the site's language
    (pages word it from the numbers, texts.mjs ``timeControlText``), not the creator's Turkish."""
    from games import services
    from games.selectors.serializers import time_control
    from games.services.lobby import lobby_message

    with translation.override("tr"):
        creator = services.player_register(username="tuna", password=None)
        match = services.match_create(creator=creator, length=3, corr_days=2, corr_bank_days=1)
        turkish = time_control(match)["label"]
        update = lobby_message(match)
    tc = update["d"]["timeControl"]
    assert (tc["daysPerMove"], tc["bankDays"]) == (2, 1)
    assert turkish.startswith("Hamle başına 2 gün")
    assert tc["label"] == "2 days per move + 1 day bank"

"""Each finished tournament match files its record by itself: its match, its ``.mat`` and
its analysis (the site's automatic analysis, queued when the match ends); the PR table of
the event computed from the analysed matches, on the tournament's page and in its JSON."""

import pytest
from django.test import Client

from games import services
from games.models import Analysis, Job, Match
from games.selectors.tournaments import standings_json, tournament_detail
from games.tasks.long import run_job
from tests.tournament_site.conftest import run_bots, tournament, tournament_matches


@pytest.fixture
def auto_analysis(db, settings):
    settings.GAMES_ANALYSIS_AUTO = True
    settings.GAMES_ANALYSIS_DEPTH = 0
    return settings


def bot_knockout(count: int):
    t = services.tournament_create(by=None, name="Records cup", format="knockout", length=1,
                                   options={"seeding": "given"})
    services.tournament_add_bots(tournament_id=t.pk, level="random", count=count)
    services.tournament_start(tournament_id=t.pk)
    run_bots(t.pk)
    assert tournament(t.pk).status == "finished"
    return t


def test_a_tournament_match_that_ends_queues_its_analysis(auto_analysis):
    t = bot_knockout(2)
    (match,) = tournament_matches(t.pk)
    assert match.status == Match.FINISHED
    analysis = Analysis.objects.get(match=match)
    assert (analysis.owner_id, analysis.depth, analysis.job.status, analysis.job.kind) == (None, 0, Job.QUEUED, "analysis")
    (row,) = tournament_detail(tournament(t.pk))["matches"]
    assert row["mat"] == f"/matches/{match.pk}/export.mat" and row["url"] == f"/matches/{match.pk}/"
    assert row["analysis"]["id"] == analysis.pk and row["analysis"]["status"] == Job.QUEUED
    assert row["analysis"]["url"] == f"/matches/{match.pk}/analysis/" and row["analysis"]["whitePr"] is None


def test_with_the_automatic_analysis_off_a_tournament_match_is_not_analysed(db):
    # tests run with GAMES_ANALYSIS_AUTO off: the site's setting that limits the analysis load holds
    t = bot_knockout(2)
    (match,) = tournament_matches(t.pk)
    assert not Analysis.objects.filter(match=match).exists()
    (row,) = tournament_detail(tournament(t.pk))["matches"]
    assert row["mat"] is not None and row["analysis"] is None
    assert [(r["analysed"], r["played"], r["pr"]) for r in tournament_detail(tournament(t.pk))["prTable"]] == [
        (0, 1, None), (0, 1, None)]


def test_an_analysis_done_fills_the_pr_table_and_tells_the_page(auto_analysis):
    t = bot_knockout(2)
    (match,) = tournament_matches(t.pk)
    analysis = Analysis.objects.get(match=match)
    before = tournament(t.pk).version
    run_job.call_local(analysis.job_id)
    analysis.refresh_from_db()
    assert analysis.result is not None and analysis.white_decisions > 0
    assert tournament(t.pk).version == before + 1  # the page refetches its fragment
    detail = tournament_detail(tournament(t.pk))
    assert detail["matches"][0]["analysis"]["status"] == Job.DONE
    assert detail["matches"][0]["analysis"]["whitePr"] == analysis.white_pr
    table = {r["player"]: r for r in detail["prTable"]}
    assert table[match.white_id]["decisions"] == analysis.white_decisions
    assert table[match.white_id]["pr"] == round(analysis.white_pr, 2)
    assert (table[match.black_id]["analysed"], table[match.black_id]["played"]) == (1, 1)
    standing = {s["player"]: s["pr"] for s in detail["standings"]}
    assert standing[match.white_id] == table[match.white_id]["pr"]
    assert standings_json(tournament(t.pk))["prTable"] == detail["prTable"]  # manage.py tournament show


def _analysed(match, white, black):
    """Mark ``match``'s analysis done with the given (PR, decisions) of each side."""
    Analysis.objects.filter(match=match).update(result={"stats": {}}, white_pr=white[0], white_decisions=white[1],
                                                black_pr=black[0], black_decisions=black[1])


def test_the_pr_table_weighs_each_player_s_analysed_matches_by_decisions(auto_analysis):
    t = bot_knockout(4)
    semi1, semi2, final = tournament_matches(t.pk)
    champion = tournament(t.pk).winner_id
    assert champion in (final.white_id, final.black_id)
    _analysed(semi1, (5.0, 10), (8.0, 20))
    _analysed(final, (11.0, 30), (2.0, 40))
    # semi2 is still being analysed
    table = {r["player"]: r for r in tournament_detail(tournament(t.pk))["prTable"]}
    sides = {(semi1.white_id, "semi"): (5.0, 10), (semi1.black_id, "semi"): (8.0, 20),
             (final.white_id, "final"): (11.0, 30), (final.black_id, "final"): (2.0, 40)}
    for pid, row in table.items():
        mine = [v for (p, _), v in sides.items() if p == pid]
        decisions = sum(d for _, d in mine)
        assert row["decisions"] == decisions
        assert row["pr"] == (round(sum(pr * d for pr, d in mine) / decisions, 2) if decisions else None)
        assert row["played"] == (2 if pid in (final.white_id, final.black_id) else 1)
        assert row["analysed"] == len(mine)
    # semi 1's winner is the one player with two analysed matches
    both = [pid for pid in table if table[pid]["analysed"] == 2]
    assert len(both) == 1 and both[0] in (semi1.white_id, semi1.black_id)
    semi2_loser = semi2.black_id if semi2.winner_id == semi2.white_id else semi2.white_id
    assert [pid for pid, r in table.items() if r["pr"] is None] == [semi2_loser]  # semi 2 not analysed yet
    assert (table[semi2.winner_id]["analysed"], table[semi2.winner_id]["played"]) == (1, 2)
    ordered = [r["pr"] for r in tournament_detail(tournament(t.pk))["prTable"]]
    assert ordered[:3] == sorted(ordered[:3]) and ordered[3] is None  # best PR first, the unanalysed last


def test_the_page_links_each_finished_match_its_mat_and_its_analysis_and_shows_the_pr_table(auto_analysis):
    t = bot_knockout(2)
    (match,) = tournament_matches(t.pk)
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/export.mat"' in page
    assert f'href="/matches/{match.pk}/analysis/"' in page and "Analysis under way" in page
    assert 'id="pr-table"' in page
    _analysed(match, (4.25, 12), (9.5, 14))
    page = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert "Analysis: PR 4.25 / 9.50" in page
    table = page[page.index('id="pr-table"'):]
    assert table.index("4.25") < table.index("9.50")  # the better PR first
    assert "1 of 1" in table
    mat = Client().get(f"/matches/{match.pk}/export.mat")
    assert mat.status_code == 200 and "1 point match" in mat.content.decode()

"""Bad analysis input is refused with a clear 400/422 and a stable code, never a 500, and
changes nothing: a depth written with non-ASCII digits (``"³".isdigit()`` is true, ``int("³")``
raises), a ``.mat`` declaring a longer match than the engine plays or a move in such digits."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Analysis, Match, Player
from games.selectors.export import match_to_mat
from tests.analysis_site.conftest import login
from tests.api.conftest import register
from tests.security.conftest import no_tracebacks  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

ODD_DIGITS = ["³", "٣", "３", "①", "2²"]


def _upload(client, text, depth="0"):
    return client.post("/analysis/upload/", {"file": SimpleUploadedFile("m.mat", text.encode()), "depth": depth})


@pytest.mark.parametrize("depth", ODD_DIGITS)
def test_a_depth_in_other_digits_is_a_400_bad_depth_on_the_page(finished, depth, no_tracebacks):
    before = Analysis.objects.count()
    response = login(finished.white).post(f"/matches/{finished.match_id}/analysis/", {"depth": depth})
    assert response.status_code == 400 and 'data-code="bad_depth"' in response.content.decode()
    assert Analysis.objects.count() == before


@pytest.mark.parametrize("depth", ODD_DIGITS)
def test_a_depth_in_other_digits_is_a_400_bad_depth_on_upload(finished, stranger, depth, no_tracebacks):
    response = _upload(login(stranger), match_to_mat(finished.match), depth=depth)
    assert response.status_code == 400 and 'data-code="bad_depth"' in response.content.decode()
    assert not Analysis.objects.filter(source=Analysis.UPLOAD).exists()


def test_a_depth_in_other_digits_is_a_400_bad_depth_in_the_api(settings, no_tracebacks):
    settings.GAMES_API_RATE_LIMIT = 100000
    agent = register("agent-depth")
    player = Player.objects.get(pk=agent.id)
    match = Match.objects.create(white=player, length=1, status=Match.FINISHED, invite_code="depth-test")
    response = agent.post(f"/api/matches/{match.pk}/analysis", {"depth": "³"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_depth"


@pytest.mark.parametrize("length", [65, 1000, 10 ** 30])
def test_a_mat_longer_than_64_points_is_refused_with_its_line(stranger, length, no_tracebacks):
    text = f" {length} point match\n\n Game 1\n bob : 0      alice : 0\n  1)                31: 8/5 6/5\n"
    response = _upload(login(stranger), text)
    page = response.content.decode()
    assert response.status_code == 422 and 'data-code="bad_length"' in page and 'data-line="1"' in page
    assert "64 points" in page
    assert not Analysis.objects.filter(source=Analysis.UPLOAD).exists()


def test_a_mat_move_in_other_digits_is_refused_with_its_line(stranger, no_tracebacks):
    text = " 3 point match\n\n Game 1\n bob : 0      alice : 0\n  1)                31: 8/\u2075 6/5\n"
    response = _upload(login(stranger), text)
    page = response.content.decode()
    assert response.status_code == 422 and 'data-code="bad_move"' in page and 'data-line="5"' in page
    assert not Analysis.objects.filter(source=Analysis.UPLOAD).exists()

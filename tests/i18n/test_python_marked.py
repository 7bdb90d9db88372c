"""Text worded in Python is marked for translation too: the message of every refusal (service
errors, the bot API's errors) and of every flash message (tests/i18n/pyscan.py)."""

import pytest

from tests.i18n.pyscan import python_messages, python_modules
from tests.i18n.scan import ROOT


def rel(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", python_modules(), ids=rel)
def test_a_modules_messages_are_marked(path):
    left = python_messages(path)
    assert not left, f"unmarked in {rel(path)}: {left[:8]}"


def test_the_python_scanner_finds_what_it_is_for(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        'raise BadRequest("bad_x", "That is not an x.")\n'
        'raise BadRequest("bad_x", f"{name} is not an x.")\n'
        'raise ApiError(400, "bad_json", gettext("The body is not JSON."))\n'
        'raise NotFound("no_x", gettext("No x %(id)s.") % {"id": f"{pk:04d}"})\n'
        'raise Conflict("late")\n'
        'raise BadRequest(exc.code, exc.message)\n'
        'messages.success(request, "Settings saved.")\n'
        'valid_id(pk, "no_x", "No such x.")\n')
    assert python_messages(module) == ["1: That is not an x.", "2: f'{name} is not an x.'",
                                       "5: Conflict(...) without a message", "7: Settings saved.",
                                       "8: No such x."]


def test_an_engine_refusal_is_worded_when_it_is_read():
    """The engine imports no Django: its messages are marked with gettext_noop, their values go
    in ``params``, and ``message`` is worded in the active language when read (games.apps)."""
    from django.utils import translation

    from games.engine.errors import IllegalPlay, gettext_noop

    exc = IllegalPlay("blocked_point", gettext_noop("Step %(step)s (%(src)s/%(dst)s): point %(dst)s is blocked."),
                      params={"step": 1, "src": 13, "dst": 7}, step=0)
    with translation.override("en"):  # whatever an earlier test left active
        english = exc.message
        assert english == str(exc) == "Step 1 (13/7): point 7 is blocked." and exc.details == {"step": 0}
    with translation.override("de"):
        german = exc.message
    assert german != english and "13/7" in german and exc.code == "blocked_point"

"""Players for the site's tests, made through the services."""

from contextlib import nullcontext
from datetime import timedelta

import pytest

from games import clock, services
from games.dice import ScriptedDice


@pytest.fixture
def alice(db):
    return services.player_register(username="alice", password="correct horse 1")


@pytest.fixture
def bob(db):
    return services.player_register(username="bob", password="correct horse 2")


# -- the notices' tests (test_notices.py, test_notice_digest.py) -------------------------------------

NOTICE_START = clock.now()
MINUTE = timedelta(minutes=1)


@pytest.fixture
def notice_settings(settings):
    """The notices' timings, pinned (the tests count in them): a turn waits 5 minutes before
    its mail, 12 hours between two "your turn" mails and before a deadline for "time running
    low", a digest a day."""
    settings.GAMES_NOTICE_DELAY = 300
    settings.GAMES_NOTICE_QUIET = 12 * 3600
    settings.GAMES_NOTICE_LOW = 12 * 3600
    settings.GAMES_DIGEST_PERIOD = 86400
    settings.GAMES_SITE_URL = "http://testserver"
    return settings


def corr_match(white, black, *, at=NOTICE_START, days=2, bank=0, capture=None):
    """A correspondence match to 3 points begun at ``at``: ``white`` opens it, ``black`` takes
    the seat (an opening 3-1: White on roll). ``capture``: the commits' callbacks run (the
    notices they queue are sent)."""
    with clock.freeze(at), (capture(execute=True) if capture else nullcontext()):
        match = services.match_create(creator=white, length=3, corr_days=days, corr_bank_days=bank)
        with services.use_dice(ScriptedDice([(3,), (1,)])):
            services.match_join(player=black, match_id=match.pk)
    return match

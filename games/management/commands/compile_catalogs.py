"""``manage.py compile_catalogs``: every ``locale/<code>/LC_MESSAGES/*.po`` compiled to its
``.mo`` when the ``.po`` is newer (polib, so no GNU gettext is needed to run the site; ``make
run`` and ``make test`` call it). ``manage.py compilemessages`` (GNU gettext) does the same for
translators who have it (docs/TRANSLATING.md)."""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po to .mo) that changed."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="compile every catalogue")

    def handle(self, *args, force=False, **options):
        compiled = 0
        for root in settings.LOCALE_PATHS:
            for po_path in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if force or not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
                    polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
                    compiled += 1
        self.stdout.write(f"{compiled} catalogue(s) compiled")

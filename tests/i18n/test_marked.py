"""Every text a person reads is marked for translation, and every shipped catalogue is complete:
no untranslated or fuzzy entry, the same placeholders in the translation as in the source."""

import re

import polib
import pytest
from django.conf import settings

from tests.i18n.scan import ROOT, module_strings, modules, template_strings, templates

# Files whose strings are not marked yet (docs/TRANSLATING.md, "What is left"). The list may only
# shrink: a file on it that has nothing left to mark fails, so it is taken off.
UNSWEPT: set[str] = set()


def rel(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", templates() + modules(), ids=rel)
def test_a_pages_text_is_marked(path):
    left = module_strings(path) if path.suffix == ".mjs" else template_strings(path)
    if rel(path) in UNSWEPT:
        assert left, f"{rel(path)} is fully marked: take it off UNSWEPT"
    else:
        assert not left, f"unmarked in {rel(path)}: {left[:8]}"


def test_the_scanner_finds_what_it_is_for(tmp_path):
    page = tmp_path / "t.html"
    page.write_text('{% load i18n %}<p>Your turn</p><p>{% translate "Done" %}</p><b title="Roll the dice">x</b>'
                    '{# a comment #}<i>{{ name }}</i>')
    assert template_strings(page) == ['title="Roll the dice"', "Your turn"]
    module = tmp_path / "m.mjs"
    module.write_text("el.textContent = 'Your turn: roll.';\nel.className = 'button small';\n"
                      "el.textContent = _('Your move');\n"
                      "el.textContent = interpolate(_('Resigns (%(kind)s)'), { kind: word(k) }, true);\n")
    assert module_strings(module) == ["Your turn: roll."]


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def catalogues() -> list:
    return sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po"))


def test_every_language_but_english_has_both_catalogues():
    for code, _ in settings.LANGUAGES[1:]:
        for domain in ("django", "djangojs"):
            assert (ROOT / "locale" / code / "LC_MESSAGES" / f"{domain}.po").exists(), (code, domain)


@pytest.mark.parametrize("path", catalogues(), ids=rel)
def test_a_catalogue_is_complete_and_keeps_the_placeholders(path):
    catalogue = polib.pofile(str(path))
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated and not fuzzy, (untranslated[:5], fuzzy[:5])
    for entry in catalogue.translated_entries():
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        wanted = sorted(PLACEHOLDER.findall(sources[-1]))
        for text in translations:
            assert sorted(PLACEHOLDER.findall(text)) == wanted, (entry.msgid, text)


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES[1:]])
def test_a_text_the_pages_and_the_browser_share_reads_the_same_in_both(code):
    """A msgid in both catalogues (the pages' and the browser's) has one translation: the lobby
    and the game page named the same bot level two ways ("Mittel", "Mittelstufe"), and the
    lobby's live list said "Match auf 1 Punkte". Two meanings of one English word take a context
    (``pgettext("withdraw an offer", "Withdraw")``)."""
    pages, browser = (polib.pofile(str(ROOT / "locale" / code / "LC_MESSAGES" / f"{d}.po")) for d in ("django", "djangojs"))
    words = {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in pages}
    differ = [e.msgid for e in browser if (e.msgctxt, e.msgid) in words
              and words[(e.msgctxt, e.msgid)] != (e.msgstr, dict(e.msgstr_plural))]
    assert not differ, differ

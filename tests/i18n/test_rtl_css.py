"""Right-to-left pages mirror (docs/TRANSLATING.md): the style sheets use logical properties
(margin-inline-start, text-align: start...), never left/right margins, paddings, borders or
alignments, except in rules written for one direction ([dir=rtl] / [dir=ltr])."""

import re

from tests.i18n.scan import ROOT

PHYSICAL = re.compile(r"\b(?:margin|padding|border)-(?:left|right)\b|\btext-align\s*:\s*(?:left|right)\b|\bfloat\s*:\s*(?:left|right)\b")
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def physical_rules(css: str) -> list:
    css = re.sub(r"/\*.*?\*/", " ", css, flags=re.S)
    return [f"{selector.strip()} {{{body.strip()}}}" for selector, body in RULE.findall(css)
            if PHYSICAL.search(body) and "[dir=" not in selector]


def test_the_style_sheets_use_logical_properties():
    found = {path.name: physical_rules(path.read_text(encoding="utf-8"))
             for path in sorted((ROOT / "static" / "css").glob("*.css"))}
    assert not any(found.values()), {name: rules[:3] for name, rules in found.items() if rules}


def test_the_check_finds_what_it_is_for():
    assert physical_rules(".a { margin-left: 1rem; }\n.b { text-align: right; }") == [
        ".a {margin-left: 1rem;}", ".b {text-align: right;}"]
    assert physical_rules(".a { margin-inline-start: 1rem; text-align: start; }\n[dir=rtl] .b { text-align: right; }\n"
                          "@media (max-width: 1px) { .c { padding-inline-end: 0; } }") == []

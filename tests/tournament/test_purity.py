"""The tournament core is pure: standard library only (no randomness, clock, I/O or
Django; a random draw takes the caller's ``random.Random``), and its docstring
examples run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_purity import forbidden_imports
from tests.test_doctests import test_docstring_examples as check_examples

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "games" / "tournament"
# what the core may use of the rest of the project: the engine's error base and wire helper
ALLOWED = ("games.tournament", "games.engine.errors", "games.engine.wire")


def modules() -> list:
    return sorted(PACKAGE_DIR.glob("*.py"))


def problems(source: str) -> list:
    return [(line, name) for line, name, _why in forbidden_imports(source, "games.tournament")
            if not any(name == a or name.startswith(a + ".") for a in ALLOWED)]


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_module_imports_only_the_standard_library(path):
    assert problems(path.read_text(encoding="utf-8")) == []


def test_the_check_flags_what_the_core_may_not_import():
    snippet = "import random\nimport time\nfrom django.db import models\nfrom games.models import Game\n" \
              "from games.engine.errors import EngineError\nfrom games.tournament.records import Result\n"
    assert [line for line, _ in problems(snippet)] == [1, 2, 3, 4]


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_docstring_examples(path):
    name = "games.tournament" if path.stem == "__init__" else f"games.tournament.{path.stem}"
    check_examples(name)


def test_no_module_is_too_long():
    for path in modules():
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 500, path.name

"""The examples in the docstrings run as tests (python-chess style): every module of games/
with a ``>>>`` example is found here by itself, so none can be written and forgotten."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def modules_with_examples() -> list:
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        if "migrations" in path.parts or ">>>" not in path.read_text():
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append(".".join(parts))
    return found


MODULES = modules_with_examples()


def test_the_examples_are_found():
    assert {"games.engine.moves", "games.engine.play", "games.conf"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has '>>>' but no example ran"
    assert result.failed == 0

"""The examples in the docstrings of the small modules run as tests (python-chess style)."""

import doctest
import importlib

import pytest

MODULES = ["games.engine.actions", "games.jsonsafe", "games.text", "games.engine", "games.engine.game", "games.engine.moves"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0

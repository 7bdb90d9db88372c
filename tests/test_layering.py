"""The dependency rule (ARCHITECTURE.md) and the one vocabulary of actions, checked on the
source: imports point one way, and no adapter keeps a table of action names of its own.

engine  <-  models  <-  selectors / services / events  <-  consumers / api / views / admin / tasks
"""

import ast
from pathlib import Path

import pytest

from games.actions import ACTIONS, ALIASES, CHOUETTE_ACTIONS

GAMES = Path(__file__).resolve().parents[1] / "games"

# Layers, lowest first; a module may import only from its own layer or lower ones.
LAYERS = [
    {"engine", "tournament", "actions", "jsonsafe", "dice", "dice_stats", "errors"},  # tournament: pure formats and pairings
    {"models", "prepared", "dbcall", "text", "clock", "ratings", "bots", "redact"},  # bots: pure strategies (engine in, play out)
    {"serializers", "chouette_view", "events", "replay", "export", "interchange", "analysis", "verify"},
    {"selectors", "visibility", "analysis_reads", "services", "layers", "realtime"},
    {"delivery", "bots.turns", "bots.chouette_turns"},  # bots.turns: a house bot's turn, played through the services
    {"consumers", "chouette_consumers", "chouette_pages", "api", "views", "admin", "accounts", "tasks", "auth", "signals", "routing", "urls",
     "management", "bench_echo", "apps", "throttle", "analysis_views"},
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}

# Modules that adapt the outside world to the services: none may spell out its own table of
# action names (they look actions up in games.actions).
ADAPTERS = ["consumers.py", "chouette_consumers.py", "api/views.py", "api/view.py", "bots/turns.py", "bots/chouette_turns.py", "bots/decide.py", "replay.py",
            "tasks.py", "views.py"]


def _modules():
    for path in sorted(GAMES.rglob("*.py")):
        rel = path.relative_to(GAMES)
        if rel.parts[0] == "migrations" or rel.parts == ("__init__.py",):
            continue
        yield rel, ast.parse(path.read_text(), filename=str(path))


def _top(rel: Path) -> str:
    """The layer name of a module: its top package, or ``package.module`` when listed so."""
    dotted = ".".join(rel.with_suffix("").parts)
    for depth in range(len(rel.parts), 0, -1):
        name = ".".join(dotted.split(".")[:depth])
        if name in RANK:
            return name
    return rel.parts[0].removesuffix(".py")


def _imported(rel: Path, tree) -> set:
    """The top-level ``games`` packages/modules a module imports."""
    found = set()
    depth = len(rel.parts) - 1  # how deep inside games/ the module sits
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("games."):
                    found.add(node.module.split(".")[1])
                continue
            if node.level - 1 < depth:
                continue  # relative to a subpackage: stays inside it
            if node.level - 1 > depth:
                continue  # pragma: no cover - would leave the games package
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("games."):
                    found.add(alias.name.split(".")[1])
    return found


@pytest.mark.parametrize("rel,tree", list(_modules()), ids=lambda v: str(v) if isinstance(v, Path) else "")
def test_imports_point_one_way(rel, tree):
    mine = _top(rel)
    assert mine in RANK, f"games/{rel}: put '{mine}' in a layer of tests/test_layering.py"
    for name in _imported(rel, tree):
        if name == mine.split(".")[0] or name not in RANK:
            continue
        assert RANK[name] <= RANK[mine], f"games/{rel} ({mine}) imports {name}, a higher layer"


NAMES = set(ACTIONS) | set(ALIASES) | set(CHOUETTE_ACTIONS)


def _literal_tables(tree) -> list:
    """Dict literals keyed by three or more action names, and sets/lists/tuples of them."""
    found = []
    for node in ast.walk(tree):
        keys = []
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            keys = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        named = [k for k in keys if k in NAMES]
        if len(named) >= 3:
            found.append((node.lineno, named))
    return found


@pytest.mark.parametrize("name", ADAPTERS)
def test_no_adapter_keeps_its_own_table_of_actions(name):
    path = GAMES / name
    tables = _literal_tables(ast.parse(path.read_text()))
    assert not tables, f"games/{name} lists actions itself {tables}: look them up in games.actions"


def test_the_check_finds_a_table_when_there_is_one():
    tree = ast.parse('ACTIONS = {"roll": 1, "move": 2, "take": 3}\nOTHER = {"a": 1}')
    assert _literal_tables(tree) == [(1, ["roll", "move", "take"])]

"""The house plan (docs/ARCHITECTURE.md), checked on the source: the folders are the layers.

    pure packages  <-  base modules  <-  models  <-  db  <-  selectors  <-  services  <-  realtime  <-  adapters

- the pure packages (engine, bots, analysis, interchange, tournament) import no Django and
  nothing of the site but other pure packages;
- a module imports only from its own layer or lower ones: selectors never import services,
  services never import realtime or an adapter (consumers, views, api, tasks, admin...);
- nothing outside ``bots/`` and ``tasks/`` imports a strategy, except through ``bots.levels``;
- no import circles anywhere in ``games/``;
- at most 20 modules directly in ``games/``, and no module over 500 lines;
- no adapter keeps a table of action names of its own.

The layer of a module is read from where it lives: its top package (``games/selectors/x.py``
is a selector), or its own name for the few modules directly in ``games/``.
"""

import ast
from pathlib import Path

import pytest

from games.engine.actions import ACTIONS, ALIASES, CHOUETTE_ACTIONS

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"

PURE = ["engine", "bots", "analysis", "interchange", "tournament"]
BASE = ["conf", "errors", "text", "jsonsafe", "clock", "dice", "ratings", "events", "throttle"]
ADAPTERS = ["consumers", "views", "api", "tasks", "admin", "auth", "signals", "routing", "urls", "apps",
            "management"]
# Layers, lowest first: a module may import from its own layer and the ones below.
LAYERS = [PURE, BASE, ["models"], ["db"], ["selectors"], ["services"], ["realtime"], ADAPTERS]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}
DJANGO = ("django", "channels", "daphne", "huey", "asgiref", "twisted", "autobahn", "redis", "psycopg")
MAX_TOP_MODULES = 20
MAX_LINES = 500


def modules():
    """``(dotted name, path, tree)`` of every module of games/ but its migrations."""
    for path in sorted(GAMES.rglob("*.py")):
        rel = path.relative_to(GAMES)
        if rel.parts[0] == "migrations":
            continue
        parts = ["games", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path, ast.parse(path.read_text(), filename=str(path))


MODULES = list(modules())
NAMES = {name for name, _, _ in MODULES}


def layer_of(dotted: str) -> str:
    """``games.selectors.games`` -> ``selectors``; ``games.clock`` -> ``clock``."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports(dotted: str, path: Path, tree) -> list:
    """``(line, imported dotted name)`` for every import of the module, at any depth (a
    function's own import is a dependency too); ``from games.x import y`` names the module
    ``games.x.y`` when that is a module, else ``games.x``."""
    package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                out.append((node.lineno, full if full in NAMES else module))
    return out


def site_imports(dotted, path, tree) -> list:
    return [(line, name) for line, name in imports(dotted, path, tree) if name == "games" or name.startswith("games.")]


@pytest.mark.parametrize("dotted,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_imports_point_one_way(dotted, path, tree):
    mine = layer_of(dotted)
    if dotted == "games":
        return
    assert mine in RANK, f"games/{path.relative_to(GAMES)}: '{mine}' is in no layer of tests/test_layering.py"
    for line, name in site_imports(dotted, path, tree):
        theirs = layer_of(name)
        if theirs == mine or not theirs:
            continue
        assert theirs in RANK, f"{dotted}:{line} imports {name}, which is in no layer"
        assert RANK[theirs] <= RANK[mine], f"{dotted}:{line} ({mine}) imports {name} ({theirs}), a higher layer"


@pytest.mark.parametrize("dotted,path,tree", [m for m in MODULES if layer_of(m[0]) in PURE],
                         ids=[m[0] for m in MODULES if layer_of(m[0]) in PURE])
def test_pure_packages_import_no_django_and_only_pure_code(dotted, path, tree):
    for line, name in imports(dotted, path, tree):
        top = name.split(".")[0]
        assert top not in DJANGO, f"{dotted}:{line} imports {name}: the pure packages import no Django"
        if top == "games":
            assert layer_of(name) in PURE, f"{dotted}:{line} imports {name}, which is not pure"


@pytest.mark.parametrize("dotted,path,tree", MODULES, ids=[m[0] for m in MODULES])
def test_strategies_only_through_the_levels_module(dotted, path, tree):
    if layer_of(dotted) in ("bots", "tasks"):
        return
    for line, name in site_imports(dotted, path, tree):
        if name.startswith("games.bots"):
            assert name == "games.bots.levels", (
                f"{dotted}:{line} imports {name}: outside bots/ and tasks/, use games.bots.levels")


def import_graph() -> dict:
    """Module -> the site modules it imports (a package counts as its ``__init__``)."""
    graph = {}
    for dotted, path, tree in MODULES:
        graph[dotted] = {name for _, name in site_imports(dotted, path, tree) if name in NAMES and name != dotted}
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles():
    assert cycles(import_graph()) == []


def test_the_circle_check_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_at_most_twenty_modules_directly_in_games():
    top = sorted(p.name for p in GAMES.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules directly in games/: {top}"


def _source_files():
    for folder, patterns in (("games", ["*.py"]), ("backgammon_site", ["*.py"]), ("bench", ["*.py"]),
                             ("static", ["*.mjs", "*.js", "*.css"]), ("templates", ["*.html"])):
        for pattern in patterns:
            for path in sorted((ROOT / folder).rglob(pattern)):
                if "migrations" not in path.parts:
                    yield path


def test_no_module_over_500_lines():
    long = {str(p.relative_to(ROOT)): n for p in _source_files()
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}, f"split these along a line a reader expects: {long}"


# -- one vocabulary of actions ------------------------------------------------------------------

ACTION_NAMES = set(ACTIONS) | set(ALIASES) | set(CHOUETTE_ACTIONS)
ACTION_ADAPTERS = ["consumers", "api", "tasks", "views"]


def _adapts_actions(dotted: str) -> bool:
    """The adapters, and the bots' decision (it answers with an action's name)."""
    return layer_of(dotted) in ACTION_ADAPTERS or dotted == "games.bots.decide"


def _literal_tables(tree) -> list:
    """Dict literals keyed by three or more action names, and sets/lists/tuples of them."""
    found = []
    for node in ast.walk(tree):
        keys = []
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            keys = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        named = [k for k in keys if k in ACTION_NAMES]
        if len(named) >= 3:
            found.append((node.lineno, named))
    return found


@pytest.mark.parametrize("dotted,path,tree", [m for m in MODULES if _adapts_actions(m[0])],
                         ids=[m[0] for m in MODULES if _adapts_actions(m[0])])
def test_no_adapter_keeps_its_own_table_of_actions(dotted, path, tree):
    tables = _literal_tables(tree)
    assert not tables, f"{dotted} lists actions itself {tables}: look them up in games.engine.actions"


def test_the_table_check_finds_a_table_when_there_is_one():
    tree = ast.parse('ACTIONS = {"roll": 1, "move": 2, "take": 3}\nOTHER = {"a": 1}')
    assert _literal_tables(tree) == [(1, ["roll", "move", "take"])]


# -- the checks fail when a rule is broken ------------------------------------------------------


def _check(dotted, source):
    """Run the per-module checks on ``source`` as if it were ``dotted``; the failures."""
    tree = ast.parse(source)
    path = GAMES.joinpath(*dotted.split(".")[1:]).with_suffix(".py")
    failures = []
    for check in (test_imports_point_one_way, test_strategies_only_through_the_levels_module,
                  test_pure_packages_import_no_django_and_only_pure_code):
        if check is test_pure_packages_import_no_django_and_only_pure_code and layer_of(dotted) not in PURE:
            continue
        try:
            check(dotted, path, tree)
        except AssertionError as exc:
            failures.append(str(exc).splitlines()[0])
    return failures


@pytest.mark.parametrize("dotted,source", [
    ("games.selectors.example", "from games.services import game_act\n"),  # a read that writes
    ("games.services.example", "from games.realtime import bridge\n"),  # a write that sends
    ("games.services.example", "from games.consumers.game import GameConsumer\n"),
    ("games.engine.example", "from django.db import models\n"),  # the engine with Django
    ("games.engine.example", "from games.models import Game\n"),
    ("games.views.example", "from games.bots.strategy import get_bot\n"),  # a strategy past the levels
])
def test_each_rule_fails_when_broken(dotted, source):
    assert _check(dotted, source), f"{source.strip()} in {dotted} passed the checks"


def test_the_rules_let_the_right_imports_through():
    assert _check("games.services.example", "from games.selectors import visibility\nfrom games.events import Batch\n") == []
    assert _check("games.views.example", "from games.bots.levels import LEVELS\n") == []

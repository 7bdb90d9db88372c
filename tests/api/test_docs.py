"""The guide and the OpenAPI document."""

import re

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games.api import guide
from games.api.openapi import SPEC


def api_patterns():
    """(path template, pattern) of every URL under /api/, in OpenAPI form ('{matchId}')."""
    out = []

    def walk(patterns, prefix):
        for p in patterns:
            route = str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + route)
            elif isinstance(p, URLPattern):
                out.append((prefix + route, p))

    walk(get_resolver().url_patterns, "/")
    api = [(path, p) for path, p in out if path.startswith("/api/") and p.name != "fallback"]
    camel = lambda m: re.sub(r"_(\w)", lambda x: x.group(1).upper(), m.group(1))  # noqa: E731
    return [(re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + camel(m) + "}", path), p) for path, p in api]


def test_every_api_url_is_in_the_openapi_document_and_nothing_else():
    paths = {path for path, _ in api_patterns()}
    assert len(paths) >= 9
    missing = paths - set(SPEC["paths"])
    assert not missing, f"not in games/api/openapi.py: {sorted(missing)}"
    assert not set(SPEC["paths"]) - paths, "the OpenAPI document names URLs that do not exist"
    for path, operations in SPEC["paths"].items():
        for method, operation in operations.items():
            assert method in {"get", "post", "delete", "put", "patch"}
            assert operation["responses"] and operation["summary"]
            for name in re.findall(r"{(\w+)}", path):
                assert any(p["name"] == name and p["in"] == "path" for p in operation.get("parameters", [])), \
                    (path, method, name)


def test_the_openapi_json_endpoint(db):
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.") and set(doc["paths"]) == set(SPEC["paths"])
    view = doc["components"]["schemas"]["AgentView"]["properties"]
    for field in ("you", "yourColor", "board", "whiteBar", "blackBar", "whiteOff", "blackOff", "dice",
                  "legalMoves", "currentPlayer", "isYourTurn", "lastTurn"):
        assert field in view


def test_the_guide_page_renders_with_every_endpoint(db):
    response = Client().get("/api/guide")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    for endpoint in ("/api/agents", "/api/matchmaking/queue", "/api/matches/", "/actions", "/api/guide",
                     "/api/openapi.json", "Authorization: Bearer", "legalMoves", "wait=30", "curl"):
        assert endpoint in page, endpoint
    assert "<table>" in page and "<pre><code" in page and '<h2 id="quick-start-with-curl">' in page
    source = Client().get("/api/guide.md")
    assert source["Content-Type"].startswith("text/markdown") and b"## Actions" in source.content


def test_the_guides_python_bot_compiles_and_uses_only_the_standard_library():
    text = guide.text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    code = blocks[0]
    compile(code, "randombot.py", "exec")
    imports = set(re.findall(r"^import (\w+)|^from (\w+)", code, re.M))
    modules = {a or b for a, b in imports}
    assert modules <= {"json", "random", "sys", "time", "urllib"}, modules
    for needed in ("/api/agents", "/api/matchmaking/queue", "wait=30", "pendingOffer", "legalMoves", "matchOver"):
        assert needed in code


def test_the_markdown_subset_escapes_html():
    html = guide.render("# T <b>\n\nHello <script>alert(1)</script> `<i>` [x](javascript:alert(1)) [y](/ok)\n\n"
                        "```\n<tag>\n```\n\n- **a**\n- *b*\n\n| h |\n| --- |\n| <c> |")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<code>&lt;i&gt;</code>" in html and 'href="javascript' not in html and '<a href="/ok">y</a>' in html
    assert "<pre><code>&lt;tag&gt;</code></pre>" in html and "<strong>a</strong>" in html and "<em>b</em>" in html
    assert "<td>&lt;c&gt;</td>" in html and '<h1 id="t-b">T &lt;b&gt;</h1>' in html

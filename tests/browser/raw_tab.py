"""Chromium tabs driven through the DevTools protocol alone, for what Playwright cannot show: a
page Playwright attaches to is kept focused and visible (its focus emulation), so a tab
behind another never becomes hidden. Here a second headless Chromium is started, its tabs
opened, activated and read over plain CDP (HTTP ``/json`` endpoints and the ``websockets``
client): a tab brought behind another is really hidden, as in a person's browser."""

import itertools
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.request

from websockets.sync.client import connect

from tests.browser.conftest import CHROMIUM_ARGS
from tests.support import free_port

POLL = 0.05  # seconds between two readings of a condition (bounded by a deadline)


class RawChromium:
    def __init__(self, path):
        self.port = free_port()
        # Chromium's helpers may still write to the profile for a moment after it dies.
        self.profile = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self.proc = subprocess.Popen([path, *CHROMIUM_ARGS, f"--remote-debugging-port={self.port}",
                                      f"--user-data-dir={self.profile.name}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.ids = itertools.count(1)
        self.until(lambda: self._http("/json/version"), what="the DevTools endpoint")

    def _http(self, path, method="GET"):
        try:
            with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method),
                                        timeout=2) as r:
                body = r.read()
        except OSError:
            return None
        try:
            return json.loads(body)
        except ValueError:
            return body.decode()

    def tabs(self):
        """The browser's tabs as its tab strip knows them: id, url, title, faviconUrl."""
        return [t for t in self._http("/json/list") or [] if t["type"] == "page"]

    def open(self, url):
        return self._http(f"/json/new?{url}", method="PUT")["id"]

    def activate(self, tab):
        """Bring ``tab`` to the front: the tab in front before goes behind it (hidden)."""
        self._http(f"/json/activate/{tab}")

    def send(self, tab, method, params=None):
        url = next(t["webSocketDebuggerUrl"] for t in self.tabs() if t["id"] == tab)
        with connect(url, max_size=None, open_timeout=5) as ws:
            n = next(self.ids)
            ws.send(json.dumps({"id": n, "method": method, "params": params or {}}))
            while True:
                reply = json.loads(ws.recv(timeout=10))
                if reply.get("id") == n:
                    if "error" in reply:
                        raise RuntimeError(reply["error"])
                    return reply["result"]

    # What Chromium answers an evaluation while the tab is between two documents (loading):
    # no page to read yet, as a condition not met yet.
    NO_CONTEXT = ("Cannot find default execution context", "Execution context was destroyed")

    def evaluate(self, tab, expression):
        """The expression's value in ``tab``'s page; None while the tab has no page yet."""
        try:
            result = self.send(tab, "Runtime.evaluate", {"expression": expression, "returnByValue": True})
        except RuntimeError as exc:
            if any(text in str(exc) for text in self.NO_CONTEXT):
                return None
            raise
        return result["result"].get("value")

    def until(self, condition, timeout=15, what="a condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            time.sleep(POLL)  # a bounded poll, as Playwright's wait_for_function
        raise AssertionError(f"{what} not met within {timeout} s")

    def close(self):
        """Stop the browser and every process it started (its own session), then its profile."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.profile.cleanup()

"""A small bounded pool of threads for CPU work a web process does on request (hints and the
tutor's checks), so that it never takes the process's request threads nor more than a fixed
share of it: at most ``threads`` computations at once (one more is refused at once, ``Busy``),
each awaited for at most ``budget`` seconds (``OverBudget``). A computation over its budget
keeps its slot until it really ends (a thread cannot be stopped), so a flood of slow ones
fills the pool and is refused rather than queued (docs/SECURITY.md, "Fair use").
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor


class Busy(Exception):
    """Every thread of the pool is taken."""


class OverBudget(Exception):
    """The computation did not end within its budget (it finishes in the background)."""


class Pool:
    def __init__(self, name: str):
        self.name = name
        self._lock = threading.Lock()
        self._size = 0
        self._executor: ThreadPoolExecutor | None = None
        self._slots: threading.BoundedSemaphore | None = None

    def _ready(self, threads: int):
        with self._lock:
            if self._executor is None or self._size != threads:
                self._size = max(1, int(threads))
                self._executor = ThreadPoolExecutor(max_workers=self._size, thread_name_prefix=self.name)
                self._slots = threading.BoundedSemaphore(self._size)
            return self._executor, self._slots

    async def run(self, fn, *, budget: float, threads: int):
        """``fn()``'s value, computed in the pool; :class:`Busy` or :class:`OverBudget`, or what ``fn`` raised."""
        executor, slots = self._ready(threads)
        if not slots.acquire(blocking=False):
            raise Busy(self.name)

        def work():
            try:
                return fn()
            finally:
                slots.release()

        try:
            future = asyncio.get_running_loop().run_in_executor(executor, work)
        except BaseException:
            slots.release()
            raise
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=budget)
        except asyncio.TimeoutError:
            raise OverBudget(self.name) from None


#: The web process's pool of hint threads (``GAMES_HINT_THREADS``, ``GAMES_HINT_BUDGET``).
HINTS = Pool("hints")

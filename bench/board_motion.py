"""Benchmark of the board's movement in Chromium, on a phone's screen with a slow CPU.

    .venv/bin/python bench/board_motion.py [--moves 12] [--throttle 4] [--speed normal] [--event move|end] [--explain]

Serves ``static/`` on loopback and opens a page that draws the board with the site's own CSS
and modules (board.mjs, motion.mjs, motion_player.mjs: the code the game page runs), at
390x844 with the CPU slowed ``--throttle`` times (the DevTools protocol's
``Emulation.setCPUThrottlingRate``). Each round is an opponent's four-step move with a hit
(Black's 3-3: 1/4*/7/10/13, a White blot hit on the 4-point), planned from the state and the
event as the game page plans it, then played. Prints the interval between animation frames
(p50, p95, max) over all rounds, the time from the event's arrival to the final position on
screen at the chosen speed and with animation off, and the game page's own JS+CSS size
(every module game.mjs imports, and the style sheets game.html and base.html link).
``--event end`` plays a game's end instead (the result's plaque coming down onto the board);
``--explain`` lists each long frame with what the page did in it and, from Chromium's long
animation frames, where its time went (scripts, forced layout, style, layout and paint).
Targets (issue 28): p95 <= 20 ms, max <= 50 ms, final within 1.5 s (normal) and 100 ms
(off), own JS+CSS <= 200 KB.
"""

import argparse
import functools
import http.server
import os
import re
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.support import free_port  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

PAGE = """<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/site.css"><link rel="stylesheet" href="/css/game.css"></head>
<body><main class="game-main"><div class="game"><section class="table"><div class="board-wrap">
<svg id="board" viewBox="0 0 888 640" role="img"></svg></div></section></div></main>
<script type="module">
import { patchBoard, renderBoard } from '/js/board.mjs';
import { planEvent, speedFactor } from '/js/motion.mjs';
import { motionPlayer } from '/js/motion_player.mjs';
import { initialState, reduce } from '/js/state.mjs';
import { colorName, resultPlaque } from '/js/texts.mjs';
const board = document.getElementById('board');
const start = [0, -2, 0, 0, 1, 0, 5, 0, 3, 0, 0, 0, -5, 0, 5, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1];
const snapshot = { t: 'snapshot', v: 10, d: { game: 1, version: 10, phase: 'move', turn: 'black', actor: 'black', you: 'white',
  board: start, whiteBar: 0, blackBar: 0, whiteOff: 0, blackOff: 0, dice: [3, 3], cube: { value: 1, owner: null, enabled: true },
  legalMoves: [], lastTurn: null, result: null, match: null, clock: null, positionId: '', matchId: '', number: 1, status: 'playing' } };
const EVENTS = {
  move: { t: 'move', v: 11, game: 1, d: { color: 'black', dice: [3, 3],
    moves: [{ from: 1, to: 4 }, { from: 4, to: 7 }, { from: 7, to: 10 }, { from: 10, to: 13 }] } },
  // the game's end (Black's resignation accepted): the result comes down onto the board
  end: { t: 'game_end', v: 11, game: 1, d: { winner: 'white', kind: 'gammon', reason: 'resign', points: 2, cubeValue: 1,
    score: [2, 0], matchOver: false, matchWinner: null, nextGame: 2 } },
};
let event = EVENTS.move;
let state, done, speed = 'normal';
const view = () => ({ you: 'white', flipped: false, bigLabels: board.clientWidth < 600 });
const draw = s => renderBoard({ ...view(), pos: s, dice: s.dice, diceColor: s.actor || s.turn, cube: s.cube,
  result: s.status === 'finished' && s.result ? resultPlaque(s.result, colorName) : null });
// what happened when (--explain): each long frame interval is listed with the marks inside it
const marks = [], loafs = [];
const mark = what => marks.push({ what, t: performance.now() });
// Chromium's long animation frames: where a long frame's time went (scripts, style and layout, paint)
if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
  new PerformanceObserver(list => loafs.push(...list.getEntries())).observe({ type: 'long-animation-frame', buffered: true });
}
const loafNear = (a, b) => loafs.filter(e => e.startTime < b && e.startTime + e.duration > a).map(e => {
  const scripts = e.scripts.reduce((sum, x) => sum + x.duration, 0);
  const layout = e.duration - (e.styleAndLayoutStart - e.startTime);
  const render = e.styleAndLayoutStart - e.renderStart;
  return `frame ${e.duration.toFixed(0)} ms: scripts ${scripts.toFixed(0)} (${e.scripts.map(x => `${x.invoker || x.invokerType} ${x.duration.toFixed(0)}, forced layout ${x.forcedStyleAndLayoutDuration.toFixed(0)}`).join('; ')}), rAF ${render.toFixed(0)}, style+layout+paint ${layout.toFixed(0)}`;
}).join(' | ');
const player = motionPlayer({ board, factor: () => speedFactor(speed),
  draw: ph => { mark(`phase ${ph.sprites.map(s => s.kind).join('+')}`); return renderBoard({ ...view(), pos: ph.pos, dice: ph.dice, diceColor: ph.diceColor, cube: ph.cube }); },
  idle: () => { mark('idle'); patchBoard(board, draw(state)); done(performance.now()); } });
window.round = (mode, kind = 'move') => new Promise(resolve => {
  speed = mode; event = EVENTS[kind];
  state = reduce(initialState(), snapshot);
  board.innerHTML = draw(state);
  const frames = [], spans = [];
  let task = null;
  marks.length = 0;
  let last = null, running = true;
  const tick = t => { if (last !== null) { frames.push(t - last); spans.push([last, t]); } last = t; if (running) requestAnimationFrame(tick); };
  // the board is drawn afresh for each round (the game page keeps its board): its first
  // frames paint the whole board, which no move does, so measuring starts two frames later
  const settled = f => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(f)));
  settled(t => { last = t; requestAnimationFrame(tick);
    setTimeout(() => {   // the event arrives (as the socket hands it over: a task)
      const arrived = performance.now();
      mark('arrival');
      done = end => { running = false;
        const long = spans.map(([a, b], k) => ({ ms: b - a, k, marks: marks.filter(m => m.t >= a - 17 && m.t < b).map(m => m.what), loaf: loafNear(a, b) }))
          .filter(x => x.ms > 34);
        resolve({ frames, final: end - arrived, long, count: spans.length, task }); };
      const phases = planEvent(state, event, view());
      state = reduce(state, event);
      player.play(phases);
      if (!player.busy) { patchBoard(board, draw(state)); done(performance.now()); }
      task = performance.now() - arrived;   // the arrival's own work: plan, first phase set up
    }, 0); });
});
</script></body></html>"""


def own_size():
    """Bytes of the game page's own JS (game.mjs and every module it imports) and CSS."""
    seen, todo = set(), ["static/js/game.mjs", "static/js/aids.mjs", "static/js/end_stats.mjs"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        text = re.sub(r"(?m)^\s*//.*$", "", (ROOT / path).read_text())   # a comment's example import is none
        for name in re.findall(r"""(?:import|from)\s*['"](\.{1,2}/[^'"]+)['"]""", text) + \
                re.findall(r"""import\s*\(\s*['"](\.{1,2}/[^'"]+)['"]""", text):
            todo.append(os.path.normpath(os.path.join(os.path.dirname(path), name)))
    css = set()
    for template in ("templates/game.html", "templates/base.html"):
        css |= {f"static/{m}" for m in re.findall(r"static '(css/[^']+)'", (ROOT / template).read_text())}
    files = sorted(seen | css)
    return sum((ROOT / f).stat().st_size for f in files), files


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--throttle", type=float, default=4)
    parser.add_argument("--speed", default="normal")
    parser.add_argument("--event", default="move", choices=("move", "end"),
                        help="move: the opponent's four-step move with a hit; end: the game's end (the result comes down)")
    parser.add_argument("--explain", action="store_true", help="list each long frame with what happened in it")
    args = parser.parse_args()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if self.path in ("/", "/bench.html"):
                body = PAGE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *a):
            pass

    Handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript"}
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(ROOT / "static")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=3, is_mobile=True, has_touch=True)
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("() => window.round")
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            page.evaluate("() => round('off')")  # warm up
            frames, finals, tasks = [], [], []
            for _ in range(args.moves):
                r = page.evaluate("([s, e]) => round(s, e)", [args.speed, args.event])
                frames += r["frames"]
                if args.explain:
                    for x in r["long"]:
                        print(f"  long frame {x['ms']:.0f} ms: interval {x['k'] + 1} of {r['count']}, during: {', '.join(x['marks']) or '-'}; {x['loaf'] or 'no long frame in Chromium'}")
                finals.append(r["final"])
                tasks.append(r["task"])
            offs = [page.evaluate("e => round('off', e)", args.event)["final"] for _ in range(args.moves)]
            browser.close()
    finally:
        server.shutdown()
    frames.sort()
    pct = lambda q: frames[min(len(frames) - 1, int(q * len(frames)))]  # noqa: E731
    size, files = own_size()
    what = "four-step moves with a hit" if args.event == "move" else "games' ends (the result coming down)"
    print(f"Chromium 390x844, CPU throttled {args.throttle:g}x, {args.moves} {what}, speed {args.speed}")
    print(f"frame interval: n={len(frames)} p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, max {frames[-1]:.1f} ms "
          "(targets p95 <= 20, max <= 50)")
    print(f"arrival to final position ({args.speed}): median {statistics.median(finals):.0f} ms, max {max(finals):.0f} ms (target <= 1500)")
    print(f"the arrival's task (plan, first phase drawn and its sprites started): median {statistics.median(tasks):.1f} ms, "
          f"max {max(tasks):.1f} ms")
    print(f"arrival to final position (off): median {statistics.median(offs):.1f} ms, max {max(offs):.1f} ms (target <= 100)")
    print(f"longest intervals: {', '.join(f'{f:.0f}' for f in frames[-8:])} ms; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores (a loaded machine drops frames)")
    print(f"game page own JS+CSS: {size / 1024:.1f} KB uncompressed in {len(files)} files (target <= 200 KB)")


if __name__ == "__main__":
    main()

// Unit tests of the pages' socket client (static/js/lib/socket.mjs) with a fake WebSocket and
// a fake clock: node --test tests/js/*.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSocket, order, wsUrl } from '../../static/js/lib/socket.mjs';

/** A fake clock and a fake WebSocket whose server side the test plays. */
function world({ random = () => 0.5 } = {}) {
  let now = 0, ids = 0;
  const timers = new Map(), sockets = [];
  const env = {
    now: () => now, random, location: { protocol: 'http:', host: 'test' },
    setTimeout: (f, ms) => { timers.set(++ids, { at: now + ms, f }); return ids; },
    setInterval: (f, ms) => { timers.set(++ids, { at: now + ms, f, every: ms }); return ids; },
    clearTimeout: id => timers.delete(id),
    clearInterval: id => timers.delete(id),
  };
  env.WebSocket = class {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; sockets.push(this); }
    send(data) {
      if (this.readyState !== 1) throw new Error('send on a socket that is not open');
      this.sent.push(JSON.parse(data));
    }
    close() {   // a browser tells the page later, when the closing handshake is over (or never)
      this.readyState = 2; this.closedByClient = true;
      env.setTimeout(() => { this.readyState = 3; if (this.onclose) this.onclose({ code: 1000 }); }, 0);
    }
    // the server's side
    accept() { this.readyState = 1; this.onopen(); }
    frame(msg) { this.onmessage({ data: JSON.stringify(msg) }); }
    drop(code = 1006) { this.readyState = 3; this.onclose({ code }); }
  };
  /** Run the clock ``ms`` forward, firing the timers in order. */
  function advance(ms) {
    const end = now + ms;
    for (;;) {
      let next = null;
      for (const [id, t] of timers) if (t.at <= end && (!next || t.at < next[1].at)) next = [id, t];
      if (!next) break;
      const [id, t] = next;
      now = t.at;
      if (t.every) t.at += t.every; else timers.delete(id);
      t.f();
    }
    now = end;
  }
  return { env, sockets, advance, get now() { return now; } };
}

/** A page that holds a numbered stream as the chouette page does: ``held`` and the frames it kept. */
function page(w, options = {}) {
  const p = { held: 0, frames: [], states: [], opened: 0 };
  p.client = openSocket({
    path: '/ws/things/1/', version: () => p.held, env: w.env,
    onFrame: msg => {
      p.frames.push(msg);
      if (msg.v == null) return;
      const where = order(p.held, msg.v);
      if (where === 'gap') p.client.resync(p.held);
      if (where === 'next') p.held = msg.v;
    },
    onOpen: () => { p.opened += 1; },
    onState: s => p.states.push(s),
    ...options,
  });
  return p;
}
const last = sockets => sockets[sockets.length - 1];
/** A page whose first socket is open and has brought it version 1. */
function started() {
  const w = world();
  const p = page(w);
  const s = w.sockets[0];
  s.accept();
  s.frame({ t: 'e', v: 1 });
  return { w, p, s };
}

test('the url carries the version held; wss on https', () => {
  const w = world();
  const p = page(w);
  assert.equal(w.sockets[0].url, 'ws://test/ws/things/1/?v=0');
  assert.equal(wsUrl('/ws/lobby/', { protocol: 'https:', host: 'h' }), 'wss://h/ws/lobby/');
  openSocket({ path: '/ws/lobby/', env: w.env });
  assert.equal(last(w.sockets).url, 'ws://test/ws/lobby/', 'no version held: no ?v=');
  p.client.close();
});

test('a dropped socket is reopened after a back-off that doubles, with jitter, from the version held', () => {
  const w = world();
  const p = page(w);
  w.sockets[0].accept();
  w.sockets[0].frame({ t: 'e', v: 1 });
  p.held = 5;
  const delays = [];
  for (let i = 0; i < 6; i++) {
    const before = w.sockets.length, start = w.now;
    last(w.sockets).drop();
    while (w.sockets.length === before) w.advance(10);
    delays.push(w.now - start);
  }
  // random() = 0.5: three quarters of 400, 800, 1600, 3200, then of the 5000 ceiling
  assert.deepEqual(delays, [300, 600, 1200, 2400, 3750, 3750]);
  assert.ok(w.sockets.slice(1).every(s => s.url.endsWith('?v=5')));
  assert.deepEqual(p.states.slice(0, 3), ['connecting', 'open', 'reconnecting']);
  // a socket that is heard from resets the back-off
  last(w.sockets).accept();
  last(w.sockets).frame({ t: 'hello', v: null });
  assert.equal(p.states[p.states.length - 1], 'open');
  const before = w.sockets.length;
  last(w.sockets).drop();
  w.advance(299);
  assert.equal(w.sockets.length, before);
  w.advance(1);
  assert.equal(w.sockets.length, before + 1);
  p.client.close();
});

test('the jitter spreads the reconnections between half and all of the back-off', () => {
  const delays = [0, 0.999].map(r => {
    const w = world({ random: () => r });
    const p = page(w);
    w.sockets[0].drop();
    let waited = 0;
    while (w.sockets.length === 1) { w.advance(1); waited += 1; }
    p.client.close();
    return waited;
  });
  assert.deepEqual(delays, [200, 400]);
});

test('a gap asks for a resync from the version held, once per version and socket', () => {
  const { w, p, s } = started();
  s.frame({ t: 'e', v: 3 });   // 2 was lost
  s.frame({ t: 'e', v: 4 });
  assert.deepEqual(s.sent, [{ t: 'resync', d: { v: 1 } }]);
  s.frame({ t: 'e', v: 2 }); s.frame({ t: 'e', v: 3 }); s.frame({ t: 'e', v: 4 });   // the server's answer
  assert.equal(p.held, 4);
  s.frame({ t: 'e', v: 6 });
  assert.deepEqual(s.sent.at(-1), { t: 'resync', d: { v: 4 } }, 'a new version held: a new request');
  assert.equal(p.client.resync(null, 'flags'), true);
  assert.deepEqual(s.sent.at(-1), { t: 'resync', d: {} }, 'no version: a snapshot');
  s.drop();
  w.advance(300);
  last(w.sockets).accept();
  assert.equal(p.client.resync(4), true, 'a new socket may ask again');
  assert.equal(p.client.resync(4), false);
  p.client.close();
});

test('a message lost without a gap is caught by the answer to the idle ping', () => {
  const { w, p, s } = started();
  // The server sent v 2 (its last before the player's decision) and the channel layer lost it,
  // and the server's own ping is late too (an old server sends none): the client pings.
  w.advance(2000);
  s.frame({ t: 'chat', v: null });   // traffic postpones the ping
  w.advance(9999);
  assert.deepEqual(s.sent, []);
  w.advance(1000);
  assert.deepEqual(s.sent, [{ t: 'ping', d: {}, v: 1 }]);
  // The server answers a ping from behind with a pong and what is missing (docs/PROTOCOL.md).
  s.frame({ t: 'pong', v: null, d: { v: 2 } });
  s.frame({ t: 'e', v: 2 });
  assert.equal(p.held, 2);
  w.advance(9000);
  assert.equal(s.sent.length, 1, 'heard from: no ping yet');
  p.client.close();
});

test("the server's ping keeps an idle socket quiet, and one that shows us behind is answered with our ping", () => {
  const { w, p, s } = started();
  for (let i = 0; i < 6; i++) {   // the server pings every 5 s of silence with what it has sent
    w.advance(5000);
    s.frame({ t: 'pong', v: null, d: { v: 1 } });
  }
  assert.deepEqual(s.sent, [], 'up to date: the client never pings');
  // v 2 was lost: the server's next ping says so, and the client's ping (with v 1) asks for it.
  w.advance(5000);
  s.frame({ t: 'pong', v: null, d: { v: 2 } });
  assert.deepEqual(s.sent, [{ t: 'ping', d: {}, v: 1 }]);
  s.frame({ t: 'e', v: 2 });
  assert.equal(p.held, 2);
  p.client.close();
});

test("the page says what behind means (a match: another game's version)", () => {
  const w = world();
  const seen = [];
  const p = page(w, { ping: () => ({ t: 'ping', d: {}, v: 3, game: 4 }),
                      behind: d => { seen.push(d); return d.game > 4; } });
  w.sockets[0].accept();
  w.sockets[0].frame({ t: 'pong', v: null, d: { game: 4, v: 9 } });
  assert.deepEqual(w.sockets[0].sent, []);
  w.sockets[0].frame({ t: 'pong', v: null, d: { game: 5, v: 1 } });
  assert.deepEqual(w.sockets[0].sent, [{ t: 'ping', d: {}, v: 3, game: 4 }]);
  assert.equal(seen.length, 2);
  p.client.close();
});

test('the page builds its own ping (the game adds its game)', () => {
  const w = world();
  const p = page(w, { ping: () => ({ t: 'ping', d: {}, v: 9, game: 4 }), pingEvery: 4000 });
  w.sockets[0].accept();
  w.advance(3999);
  assert.deepEqual(w.sockets[0].sent, []);
  w.advance(1000);
  assert.deepEqual(w.sockets[0].sent, [{ t: 'ping', d: {}, v: 9, game: 4 }]);
  p.client.close();
});

test('a socket that stays silent after a ping is dead: it is dropped and another opened', () => {
  const { w, p, s } = started();
  w.advance(15000);   // no server ping for 10 s: the client pings; 5 s more without an answer
  assert.equal(s.sent.filter(m => m.t === 'ping').length, 1);
  assert.equal(w.sockets.length, 1, 'not dead yet at 15 s');
  w.advance(1000);
  assert.ok(s.closedByClient, 'the dead socket is closed');
  assert.equal(p.states.at(-1), 'reconnecting');
  w.advance(300);
  assert.equal(w.sockets.length, 2);
  assert.equal(w.sockets[1].url, 'ws://test/ws/things/1/?v=1');
  w.sockets[1].accept();
  w.advance(10);   // the dead socket's own close event comes late: it changes nothing
  assert.equal(w.sockets.length, 2);
  assert.equal(p.states.at(-1), 'open');
  assert.equal(p.opened, 2);
  p.client.close();
});

test('a socket that answers is never taken for dead', () => {
  const w = world();
  const p = page(w);
  const s = w.sockets[0];
  s.accept();
  for (let i = 0; i < 10; i++) {
    w.advance(4000);
    s.frame({ t: 'pong', v: null, d: { v: 0 } });
  }
  assert.equal(w.sockets.length, 1);
  assert.ok(!s.closedByClient);
  p.client.close();
});

test('no second socket while one is opening or open', () => {
  const w = world();
  const p = page(w);
  p.client.wake();   // while it opens
  assert.equal(w.sockets.length, 1);
  w.sockets[0].accept();
  p.client.wake();   // open: a ping, not a socket
  assert.equal(w.sockets.length, 1);
  assert.deepEqual(w.sockets[0].sent, [{ t: 'ping', d: {}, v: 0 }]);
  w.sockets[0].drop();
  p.client.wake();   // the page came back: reconnect now, not after the back-off
  assert.equal(w.sockets.length, 2);
  w.advance(60000);   // the back-off's timer was cleared
  assert.equal(w.sockets.length, 2);
  p.client.close();
});

test('a stop code ends it; so does close(); nothing is sent on a closed socket', () => {
  const w = world();
  const p = page(w);
  w.sockets[0].accept();
  w.sockets[0].drop(4003);   // suspended (docs/PROTOCOL.md)
  w.advance(60000);
  assert.equal(w.sockets.length, 1);
  assert.equal(p.states.at(-1), 'stopped');
  assert.equal(p.client.send({ t: 'chat' }), false);

  const v = world();
  const q = page(v);
  v.sockets[0].accept();
  q.client.close();
  assert.ok(v.sockets[0].closedByClient);
  v.advance(60000);
  assert.equal(v.sockets.length, 1);
  assert.deepEqual(v.sockets[0].sent, [], 'no ping after close');
});

test('order: seen, next or a gap', () => {
  assert.equal(order(null, 7), 'next');
  assert.equal(order(3, 3), 'seen');
  assert.equal(order(3, 2), 'seen');
  assert.equal(order(3, 4), 'next');
  assert.equal(order(3, 5), 'gap');
});

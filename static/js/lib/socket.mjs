// One websocket client for the pages that follow a numbered stream: the game, the chouette
// and the lobby (docs/PROTOCOL.md, "Connecting and resync" and "Delivery").
//
// - It connects with the version the page holds (``?v=``), so the server sends what is missing.
// - The server pings a socket it has sent nothing for 5 s (a ``pong`` with the version it has
//   sent): one that shows the page behind (``behind``) is answered with our ping at once, which
//   carries the version held, so the server sends what is missing.
// - It pings itself only when the server's ping is late (``pingEvery`` of silence: 10 s), and
//   at once when the page is shown again, focused or back online.
// - A socket that hears nothing for ``deadAfter`` ms while a ping is unanswered is dead: it is
//   dropped and a new one opened.
// - A socket that closes is reopened after a back-off with jitter (400 ms doubling to 5 s, each
//   drawn between half and all of it), reset by the first frame a new socket hears; a close
//   code in ``stopCodes`` (4003: suspended) stops it.
// - One socket at a time: a connect while one is opening or open does nothing.
// The page keeps the version and decides what a gap is (``order`` helps); ``resync`` asks
// for the missing frames at most once per version held and socket.

/** ``ws(s)://host/path`` for this page. */
export function wsUrl(path, loc = globalThis.location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${path}`;
}

/** Where a frame numbered ``v`` stands against the version held: ``seen``, ``next`` or ``gap``. */
export function order(held, v) {
  if (held === null || held === undefined) return 'next';
  if (v <= held) return 'seen';
  return v === held + 1 ? 'next' : 'gap';
}

const OPEN = 1;

/**
 * Open the page's socket. Options:
 * - ``path``: the socket's path (a string, or a function: read at each connect);
 * - ``version()``: the version held (``?v=`` and the idle ping's ``v``); without it, no ``?v=``;
 * - ``ping()``: the idle ping to send (default ``{t: 'ping', d: {}, v: version()}``);
 * - ``behind(d)``: whether the ``d`` of a ``pong`` (the server's ``v``, and ``game`` for a
 *   match) shows the page missing something (default: ``d.v`` above ``version()``);
 * - ``onFrame(msg)``, ``onOpen()``, ``onState(state, code)``: the page's hooks; ``state`` is
 *   ``connecting``, ``open``, ``reconnecting`` or ``stopped``;
 * - ``pingEvery`` (10000 ms of silence: twice the server's own ping), ``deadAfter``
 *   (pingEvery + 5000: a ping unanswered for 5 s), ``tick`` (1000 ms),
 *   ``backoff`` ({first: 400, max: 5000}), ``stopCodes`` ([4003]), ``wake`` (true: ping, or
 *   reconnect at once, when the page is shown again, gets the focus or comes back online);
 * - ``env``: WebSocket, now, setTimeout, clearTimeout, setInterval, clearInterval, random,
 *   location (the tests' fakes).
 * Returns ``{send(msg), resync(v, scope), ping(), wake(), close(), connected}``.
 */
export function openSocket(options) {
  const env = {
    WebSocket: globalThis.WebSocket, now: () => Date.now(), random: Math.random, location: globalThis.location,
    setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: t => clearTimeout(t),
    setInterval: (f, ms) => setInterval(f, ms), clearInterval: t => clearInterval(t), ...options.env,
  };
  const pingEvery = options.pingEvery ?? 10000, deadAfter = options.deadAfter ?? pingEvery + 5000;
  const backoff = { first: 400, max: 5000, ...options.backoff };
  const stopCodes = options.stopCodes ?? [4003];
  const version = options.version || (() => null);
  const hook = name => options[name] || (() => {});
  const behind = options.behind || (d => {
    const held = version();
    return typeof d.v === 'number' && typeof held === 'number' && d.v > held;
  });
  let ws = null, timer = null, attempt = 0, stopped = false, state = null;
  let heardAt = env.now(), pingedAt = 0, resynced = null;

  function setState(next, code) {
    if (next === state) return;
    state = next;
    hook('onState')(next, code);
  }

  function url() {
    const path = typeof options.path === 'function' ? options.path() : options.path;
    const v = options.version ? version() : null;
    return wsUrl(v === null || v === undefined ? path : `${path}?v=${v}`, env.location);
  }

  function connect() {
    if (stopped || (ws && ws.readyState <= OPEN)) return;
    env.clearTimeout(timer); timer = null;
    setState(state === null ? 'connecting' : 'reconnecting');
    const socket = ws = new env.WebSocket(url());
    resynced = null;
    socket.onopen = () => {
      if (socket !== ws) return;
      heardAt = env.now(); pingedAt = 0;
      setState('open');
      hook('onOpen')();
    };
    socket.onmessage = e => {
      if (socket !== ws) return;
      const answers = pingedAt > heardAt;   // the first frame after our ping: its answer
      heardAt = env.now(); attempt = 0;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      // The server's own ping shows us behind: our ping, with the version held, asks for the
      // rest (the answer to our ping is followed by what we miss: no second ping for it).
      if (msg && msg.t === 'pong' && msg.d && !answers && behind(msg.d)) ping();
      hook('onFrame')(msg);
    };
    socket.onclose = e => { if (socket === ws) dropped(e && e.code); };
  }

  function dropped(code) {
    ws = null;
    if (stopped) return;
    if (stopCodes.includes(code)) { stopped = true; setState('stopped', code); return; }
    setState('reconnecting', code);
    const ceiling = Math.min(backoff.first * 2 ** attempt, backoff.max);
    attempt += 1;
    timer = env.setTimeout(connect, ceiling / 2 + env.random() * ceiling / 2);
  }

  /** Drop a socket that stopped answering (its close may take long to come: do not wait). */
  function kill() {
    const socket = ws;
    socket.onopen = socket.onmessage = socket.onclose = null;
    try { socket.close(); } catch { /* already closing */ }
    dropped('dead');
  }

  const connected = () => !!ws && ws.readyState === OPEN;

  function send(msg) {
    if (!connected()) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function ping() {
    if (!connected()) return false;
    pingedAt = env.now();
    return send(options.ping ? options.ping() : { t: 'ping', d: {}, v: version() });
  }

  /** Ask for what follows version ``v`` (null: a snapshot); once per version held, ``scope`` and socket. */
  function resync(v = null, scope = '') {
    const key = `${v}|${options.version ? version() : ''}|${scope}`;
    if (key === resynced || !connected()) return false;
    resynced = key;
    return send({ t: 'resync', d: v === null ? {} : { v } });
  }

  function check() {
    if (!connected()) return;
    const now = env.now();
    if (pingedAt > heardAt && now - heardAt > deadAfter) kill();
    else if (now - heardAt >= pingEvery && now - pingedAt >= pingEvery) ping();
  }

  /** The page is back (shown, focused, online): ping now, or reconnect now without waiting. */
  function wake() {
    if (connected()) ping();
    else connect();
  }

  const ticker = env.setInterval(check, options.tick ?? 1000);
  const onWake = () => { if (document.visibilityState !== 'hidden') wake(); };
  const wakers = options.wake === false || typeof document === 'undefined' ? []
    : [[document, 'visibilitychange'], [window, 'focus'], [window, 'online']];
  for (const [target, type] of wakers) target.addEventListener(type, onWake);

  function close() {
    stopped = true;
    env.clearTimeout(timer); env.clearInterval(ticker);
    for (const [target, type] of wakers) target.removeEventListener(type, onWake);
    if (ws) { const socket = ws; ws = null; socket.onclose = null; socket.close(); }
  }

  connect();
  return { send, resync, ping, wake, close, get connected() { return connected(); } };
}

// The game page: the socket, the board's input (click, drag, keys) and the panels.
// All game logic lives in state.mjs (pure); this module only wires it to the page.
import * as S from './state.mjs';
import { renderBoard, hitAt, WIDTH, HEIGHT } from './board.mjs';
import { loadOptions, saveOption, sounds, turnNotice } from './prefs.mjs';
import * as T from './texts.mjs';

const $ = id => document.getElementById(id);
const boot = JSON.parse($('boot').textContent);
const boardEl = $('board'), dragEl = $('drag-layer');
const opts = loadOptions(boot);
const SOUND = sounds(opts);
const savePrefs = name => saveOption(boot, opts, name, () => toast('Your settings could not be saved.'));
let state = S.initialState();
state = S.reduce(state, boot.snapshot);
state = { ...state, moveList: S.fold(S.initialState(), boot.history).moveList };
let cursor = null;            // keyboard focus: a point, 'bar' or 'off'
let sent = null;              // the version an action was sent at (no double sends)
let snapshotAsked = null;     // the version a snapshot was asked for
let ws = null, wsDelay = 400, closedByUs = false, clockOffset = 0, clockAt = Date.now();
let endShownFor = null;

// -- the socket ---------------------------------------------------------------------------------
function send(t, d = {}, withVersion = true) {
  if (!ws || ws.readyState !== 1) { toast('Not connected: reconnecting…'); return false; }
  const msg = { t, d };
  if (withVersion) { msg.v = state.version; msg.game = state.game; }
  ws.send(JSON.stringify(msg));
  return true;
}

function act(t, d = {}) {
  if (sent === state.version) return;      // one action per version; the server answers with the next
  if (send(t, d)) sent = state.version;
}

function connect() {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/games/${state.game}/?v=${state.version}`;
  const socket = ws = new WebSocket(url);
  ws.onopen = () => { wsDelay = 400; $('banner').hidden = true; document.body.dataset.connected = '1'; heardAt = Date.now(); };
  ws.onmessage = e => { heardAt = Date.now(); receive(JSON.parse(e.data)); };
  ws.onclose = e => {
    if (socket !== ws) return;   // an old socket we replaced
    document.body.dataset.connected = '0';
    if (e.code === 4003) {   // suspended (docs/PROTOCOL.md): no reconnecting
      closedByUs = true; $('banner').textContent = 'Your account is suspended.'; $('banner').hidden = false;
    }
    if (closedByUs) return;
    $('banner').hidden = false;
    sent = null;
    setTimeout(connect, wsDelay); wsDelay = Math.min(wsDelay * 2, 5000);
  };
}

// Delivery (docs/PROTOCOL.md): an idle ping carries the version we hold, so the server can
// send whatever we missed; a socket that stays silent past a ping is dead: reconnect.
const PING_EVERY = 3000, DEAD_AFTER = 9000;
let heardAt = Date.now(), pingedAt = 0;
function ping() {
  if (!ws || ws.readyState !== 1) return;
  pingedAt = Date.now();
  ws.send(JSON.stringify({ t: 'ping', d: {}, v: state.version, game: state.game }));
}
setInterval(() => {
  if (!ws || ws.readyState !== 1) return;
  const now = Date.now();
  if (now - heardAt > DEAD_AFTER && pingedAt > heardAt) { ws.close(); return; }
  if (now - heardAt >= PING_EVERY && now - pingedAt >= PING_EVERY) ping();
}, 1000);
for (const [target, type] of [[document, 'visibilitychange'], [window, 'focus'], [window, 'online']]) {
  target.addEventListener(type, () => { if (document.visibilityState !== 'hidden') ping(); });
}

const queue = [];
let scheduled = false;
function receive(msg) {
  queue.push(msg);
  if (!scheduled) { scheduled = true; queueMicrotask(flush); }
}

// The end of a game stays on screen (the final position, the result, the score): the next
// game's messages wait here until the player presses "Next game" or GAMES_NEXT_GAME_DELAY
// seconds pass.
let hold = null;
const NEXT_DELAY = (boot.nextGameDelay ?? 8) * 1000;
function holdNext() {
  hold = { msgs: [], until: Date.now() + NEXT_DELAY, timer: setTimeout(releaseNext, NEXT_DELAY) };
}
function releaseNext() {
  if (!hold) return;
  const msgs = hold.msgs;
  clearTimeout(hold.timer); hold = null;
  if (msgs.length) for (const m of msgs) receive(m); else render();
}
const nextGameMsg = msg => (msg.t === 'snapshot' ? msg.d.game : msg.game) !== state.game &&
  (msg.t === 'snapshot' || (msg.game !== undefined && msg.game !== null));

function flush() {
  scheduled = false;
  const before = state;
  for (const msg of queue.splice(0)) {
    if (msg.t === 'error') { onError(msg.d); continue; }
    if (msg.t === 'suspended') { toast(`${msg.d.name} was suspended by an administrator: the match ends (a forfeit).`, 'suspended'); continue; }
    if (hold && nextGameMsg(msg)) { hold.msgs.push(msg); continue; }
    if (msg.t === 'move' && msg.v === state.version + 1 && msg.game === state.game) {
      const { hits } = S.applySteps(state, msg.d.color, msg.d.moves);
      (hits ? SOUND.hit : SOUND.move)();
    }
    if (msg.t === 'roll' && msg.v === state.version + 1) SOUND.roll();
    const prevGame = state.game;
    state = S.reduce(state, msg);
    if (msg.t === 'game_end') renderDialog();   // before the next game's snapshot replaces it
    if (msg.t === 'game_end' && msg.game === state.game && state.gameEnd && !state.gameEnd.matchOver && state.gameEnd.nextGame) holdNext();
    const clock = msg.t === 'snapshot' ? msg.d.clock : msg.state && msg.state.clock;
    if (msg.t === 'snapshot' || (msg.state && msg.state.clock)) {
      clockOffset = clock ? Date.parse(clock.serverTime) - Date.now() : 0; clockAt = Date.now();
    }
    if (state.game !== prevGame && prevGame !== null) history.replaceState(null, '', `/games/${state.game}/`);
    if (msg.t === 'rematch_start' && state.rematch && state.rematch.game) {
      closedByUs = true; ws.close(); location.assign(`/games/${state.rematch.game}/`); return;
    }
  }
  if (state.version !== before.version || state.game !== before.game) { sent = null; cursor = null; }
  if (state.actor !== before.actor && state.actor && state.you && before.actor !== null) {
    (state.actor === state.you ? SOUND.yourTurn : SOUND.theirTurn)();
  }
  noticeTurn();
  if (state.needResync && ws) send('resync', { v: state.version }, false);
  afterChange();
}

function afterChange() {
  // Events carry the cube flags, the clocks and the Position ID in their "state"; an event
  // without one (game_start) is followed by a snapshot request (once per version).
  if (state.flagsStale && !state.needResync && snapshotAsked !== state.version) {
    snapshotAsked = state.version;
    send('resync', {}, false);
  }
  render();
  autoplay();
}

function autoplay() {
  if (!state.you || state.actor !== state.you || sent === state.version) return;
  if (state.phase === 'turn' && opts.autoroll && !state.flagsStale) act('roll');
  else if (state.phase === 'move' && !state.partial.length) {
    if (S.mustPass(state) && opts.forced) act('move', { moves: [] });
    else { const f = S.forcedPlay(state); if (f && opts.forced) act('move', { moves: f }); }
  }
}

const ERRORS = {
  stale_version: 'The game moved on before your action arrived; here is the current position.',
  not_your_turn: 'It is not your turn.',
  spectator: 'Spectators cannot play.',
  login_required: 'Log in to do that.',
  rate_limited: 'Slow down: too many messages.',
};
function onError(d) {
  sent = null;
  toast(ERRORS[d.code] || d.message || d.code, d.code);
}

let toastTimer = null;
function toast(text, code = '') {
  const el = $('toast');
  el.textContent = text; el.dataset.code = code; el.hidden = false;
  clearTimeout(toastTimer); toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

// -- input: clicks, taps, drags, keys -----------------------------------------------------------
function activate(p) {
  if (!S.canMoveNow(state) || p === null) return;
  if (state.selected !== null && state.selected !== undefined) {
    const targets = S.targetsFrom(state, state.selected);
    if (targets.has(p)) { state = S.moveTo(state, p); cursor = null; SOUND.move(); render(); sendIfDone(); return; }
  }
  state = S.select(state, state.selected === p ? null : p);
  // one-click moves: a checker with a single target (not a choice) moves there at once? No: show targets.
  render();
}

let drag = null;
boardEl.addEventListener('pointerdown', e => {
  const p = hitAt(e.clientX, e.clientY);
  if (p === null || !S.canMoveNow(state)) return;
  const canDrag = S.selectableSources(state).includes(p);
  drag = { p, x: e.clientX, y: e.clientY, moved: false, canDrag };
  if (canDrag) boardEl.setPointerCapture(e.pointerId);
});
boardEl.addEventListener('pointermove', e => {
  if (!drag || !drag.canDrag) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
  if (!drag.moved) { drag.moved = true; state = S.select(state, drag.p); render(); }
  const r = boardEl.getBoundingClientRect(), k = WIDTH / r.width;
  const x = (e.clientX - r.left) * k, y = (e.clientY - r.top) * (HEIGHT / r.height);
  dragEl.innerHTML = `<g class="checker ${state.you} ghost"><circle cx="${x}" cy="${y}" r="27"/><circle class="rim" cx="${x}" cy="${y}" r="20"/></g>`;
});
boardEl.addEventListener('pointerup', e => {
  if (!drag) return;
  const d = drag; drag = null; dragEl.innerHTML = '';
  if (!d.moved) { activate(d.p); return; }
  const to = hitAt(e.clientX, e.clientY);
  if (to !== null && S.targetsFrom(state, d.p).has(to)) { state = S.moveTo(state, to, d.p); SOUND.move(); }
  else state = S.select(state, null);
  render(); sendIfDone();
});
boardEl.addEventListener('pointercancel', () => { drag = null; dragEl.innerHTML = ''; });

function cursorChoices() {
  if (state.selected !== null && state.selected !== undefined) return [...S.targetsFrom(state, state.selected).keys()];
  return S.selectableSources(state);
}
const fromViewer = n => (opts.numbers !== 'white' && state.you === 'black' ? 25 - n : n);
let digits = '', digitTimer = null;
document.addEventListener('keydown', e => {
  if (e.target.closest('input, textarea, select, button, summary, a') && !['Escape'].includes(e.key)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const choices = cursorChoices();
  if (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    if (!choices.length) return;
    const i = choices.indexOf(cursor), dir = (e.key === 'ArrowRight' || e.key === 'ArrowDown') ? 1 : -1;
    cursor = choices[(i + dir + choices.length) % choices.length];
    e.preventDefault(); render();
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    if (cursor !== null && choices.includes(cursor)) { const c = cursor; cursor = null; activate(c); }
    else if (S.completedPlay(state)) confirmPlay();
    else if (state.phase === 'turn' && state.actor === state.you) act('roll');
  } else if (e.key === 'Backspace') {
    e.preventDefault(); state = S.undo(state); cursor = null; render();
  } else if (e.key === 'Escape') {
    state = S.select(state, null); cursor = null; render();
  } else if (e.key === 'b' || e.key === 'B') activate('bar');
  else if (e.key === 'o' || e.key === 'O') activate('off');
  else if (/^\d$/.test(e.key)) {
    digits += e.key; clearTimeout(digitTimer);
    const n = Number(digits);
    const done = digits.length === 2 || n > 2 || (n === 0);
    const fire = () => { const v = Number(digits); digits = ''; if (v >= 1 && v <= 24) activate(fromViewer(v)); };
    if (done) fire(); else digitTimer = setTimeout(fire, 700);
  }
});

/** With "confirm before sending" off, a completed play goes at once. */
function sendIfDone() { if (!opts.confirm && S.completedPlay(state)) confirmPlay(); }

// The tutor (static/js/aids.mjs, unrated matches with aids) may check an action before it is sent.
function gated(t, d = {}) {
  if (!window.aidsGate) { act(t, d); return; }
  window.aidsGate(t, d).then(ok => { if (ok) act(t, d); });
}

function confirmPlay() {
  const play = S.completedPlay(state);
  if (play) gated('move', { moves: play });
}

document.querySelectorAll('[data-act]').forEach(btn => btn.addEventListener('click', () => {
  const a = btn.dataset.act;
  if (a === 'undo') { state = S.undo(state); render(); }
  else if (a === 'confirm') confirmPlay();
  else if (a === 'pass') act('move', { moves: [] });
  else if (a === 'claim') send('claim', {}, false);
  else if (a === 'next') releaseNext();
  else gated(a);
}));
document.querySelectorAll('[data-resign]').forEach(btn => btn.addEventListener('click', () => {
  if (confirm(`Offer to resign ${btn.textContent.replace('Offer ', 'a ')}?`)) act('resign_offer', { level: Number(btn.dataset.resign) });
}));
$('rematch').addEventListener('click', () => { send('rematch', {}, false); $('rematch-note').textContent = 'Rematch offered: waiting for your opponent…'; });
$('end-close').addEventListener('click', () => { $('end-dialog').hidden = true; });

document.addEventListener('visibilitychange', noticeTurn);
function noticeTurn() {
  turnNotice(!!state.you && state.actor === state.you && state.status !== 'finished' && document.visibilityState === 'hidden');
}
$('copy-posid').addEventListener('click', async () => {
  const input = $('position-id'); input.select();
  try { await navigator.clipboard.writeText(input.value); } catch { document.execCommand('copy'); }
  $('copy-posid').textContent = 'Copied';
});
$('chat-form').addEventListener('submit', e => {
  e.preventDefault();
  const input = $('chat-input'), text = input.value.trim();
  if (text && send('chat', { text }, false)) input.value = '';
});
for (const [id, name] of [['opt-forced', 'forced'], ['opt-autoroll', 'autoroll'], ['opt-sound', 'sound'], ['opt-flip', 'flip']]) {
  const box = $(id); box.checked = opts[name];
  box.addEventListener('change', () => {
    opts[name] = box.checked; savePrefs(name); render(); autoplay();
  });
}

// -- rendering ------------------------------------------------------------------------------------
const esc = s => String(s ?? '').replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const cap = c => (c ? c[0].toUpperCase() + c.slice(1) : '');
const nameOf = c => (state.match && state.match[c] ? state.match[c].name : cap(c));

function usedDice() {
  if (!state.dice || !state.partial.length) return [];
  const dice = state.dice[0] === state.dice[1] ? [state.dice[0], state.dice[0], state.dice[0], state.dice[0]] : state.dice.slice();
  const used = dice.map(() => false);
  for (const step of S.flatPartial(state)) {
    const from = step.from === 'bar' ? 25 : S.moverPoint(step.from, state.you);
    const to = step.to === 'off' ? 0 : S.moverPoint(step.to, state.you);
    const dist = from - to;
    let i = used.findIndex((u, k) => !u && dice[k] === dist);
    if (i < 0) i = used.findIndex((u, k) => !u && dice[k] > dist);
    if (i >= 0) used[i] = true;
  }
  return dice.length === 4 ? [used.filter(Boolean).length >= 4, used.filter(Boolean).length >= 2] : used;
}

const fmtClock = T.fmtClock;
function clockText(color) {
  const c = state.clock;
  if (!c) return '';
  const bank = c[color];
  if (c.running !== color || !c.deadline || state.status === 'finished') return fmtClock(bank);
  const left = Date.parse(c.deadline) - (Date.now() + clockOffset);
  const delay = Math.max(0, left - bank);
  return delay > 0 ? `${fmtClock(bank)} +${Math.ceil(delay / 1000)}s` : fmtClock(left);
}
function tickClocks() {
  for (const seat of ['top', 'bottom']) {
    const el = $(`seat-${seat}`), color = el.dataset.color;
    if (!color) continue;
    const c = el.querySelector('[data-clock]');
    c.textContent = clockText(color);
    c.classList.toggle('running', !!state.clock && state.clock.running === color && state.status !== 'finished');
  }
}
setInterval(tickClocks, 250);

function renderSeats() {
  const me = state.you || 'white', opp = S.OTHER[me];
  const pips = S.pipCounts(S.currentPosition(state));
  for (const [seat, color] of [['top', opp], ['bottom', me]]) {
    const el = $(`seat-${seat}`);
    el.dataset.color = color;
    el.classList.toggle('on-roll', state.actor === color);
    const p = state.match && state.match[color];
    el.querySelector('[data-chip]').className = `chip ${color}`;
    el.querySelector('[data-name]').innerHTML = p ? `${esc(p.name)} <small>${Math.round(p.rating)}</small>${state.you === color ? ' <em>(you)</em>' : ''}` : '<em>waiting…</em>';
    el.querySelector('[data-pips]').textContent = `${pips[color]} pips`;
    const pres = state.presence && state.presence[color];
    const dot = el.querySelector('[data-presence]');
    dot.className = `dot ${pres ? (pres.connected ? 'on' : 'off') : ''}`;
    dot.title = pres ? (pres.connected ? 'connected' : 'away') : '';
    dot.setAttribute('aria-label', `${cap(color)} ${pres && !pres.connected ? 'away' : 'connected'}`);
  }
  tickClocks();
}

const resultText = r => T.resultText(r, nameOf);
const scoreText = g => T.scoreText(g, state.match, nameOf);

function statusText() {
  const you = state.you;
  if (state.status === 'finished' || state.phase === 'over') {
    const g = state.gameEnd;
    if (hold && g) return `${resultText(state.result)} ${scoreText(g)}. Next game in ${Math.max(0, Math.ceil((hold.until - Date.now()) / 1000))} s.`;
    return resultText(state.result);
  }
  if (state.phase === 'opening') return 'Opening roll…';
  const actorName = state.actor === you ? 'You' : nameOf(state.actor);
  switch (state.phase) {
    case 'move':
      if (state.actor !== you) return `${actorName} to move.`;
      if (S.mustPass(state)) return 'No legal move: you must pass.';
      if (S.completedPlay(state)) return 'Confirm your play (Enter), or undo.';
      return state.selected !== null && state.selected !== undefined ? 'Pick a highlighted point.' : 'Your move: pick a checker.';
    case 'turn': return state.actor === you ? 'Your turn: roll or double.' : `${actorName} to roll.`;
    case 'cube_offered': return state.actor === you ? `Double to ${state.cube.offered || state.cube.value * 2}: take or pass?` : `${actorName} is considering the double.`;
    case 'resign_offered':
      return state.actor === you ? `${nameOf(state.resignOffer.by)} offers to resign a ${state.resignOffer.name}.` : `Waiting for an answer to the resignation (${state.resignOffer.name}).`;
    default: return '';
  }
}

function renderControls() {
  const you = state.you, mine = you && state.actor === you && state.status !== 'finished';
  const fresh = !state.flagsStale;   // cube choices wait for the server's flags (one snapshot away)
  const show = {
    roll: mine && fresh && state.phase === 'turn',
    double: mine && fresh && state.phase === 'turn' && state.cube.canDouble,
    raccoon: mine && fresh && state.phase === 'turn' && state.cube.canRaccoon,
    take: mine && fresh && state.phase === 'cube_offered',
    drop: mine && fresh && state.phase === 'cube_offered',
    beaver: mine && fresh && state.phase === 'cube_offered' && state.cube.canBeaver,
    undo: mine && state.phase === 'move' && state.partial.length > 0,
    confirm: mine && state.phase === 'move' && !S.mustPass(state),
    pass: mine && S.mustPass(state),
    resign_accept: mine && state.phase === 'resign_offered',
    resign_reject: mine && state.phase === 'resign_offered',
    claim: !!you && state.status !== 'finished' && claimIn() === 0,
    next: !!hold,
  };
  for (const btn of document.querySelectorAll('[data-act]')) {
    btn.hidden = !show[btn.dataset.act];
    btn.disabled = sent === state.version && btn.dataset.act !== 'undo';
  }
  $('controls').querySelector('[data-act=confirm]').disabled = !S.completedPlay(state) || sent === state.version;
  $('status-line').textContent = statusText();
  $('game-over-links').hidden = !hold;
  $('over-replay').href = `/games/${state.game}/replay/`;
  $('over-verify').href = `/games/${state.game}/verify/`;
  renderAway();
  $('resign-box').hidden = !you || state.status === 'finished' || state.phase === 'resign_offered';
}

// -- an absent opponent: a countdown, then the claim (the server waits GAMES_ABSENCE_GRACE) ------
/** Milliseconds until the match can be claimed; null when the opponent is here (or a bot). */
function claimIn() {
  const you = state.you, p = state.presence;
  if (!you || !p || state.status === 'finished') return null;
  const opp = p[S.OTHER[you]];
  if (!opp || opp.connected || opp.bot || !opp.awaySince) return null;
  const waited = Date.now() + clockOffset - Date.parse(opp.awaySince);
  return Math.max(0, (p.claimAfter || 120) * 1000 - waited);
}
function renderAway() {
  const left = claimIn(), note = $('away-note');
  note.hidden = left === null;
  if (left === null) return;
  const who = nameOf(S.OTHER[state.you]);
  note.textContent = left > 0 ? `${who} left the table: if they are not back in ${fmtClock(left)}, you can claim the match.`
    : `${who} has been away too long: you may claim the match (or keep waiting).`;
  $('controls').querySelector('[data-act=claim]').hidden = left > 0;
}
setInterval(() => { if (claimIn() !== null || hold) { renderAway(); $('status-line').textContent = statusText(); renderControls(); } }, 1000);

function renderPanel() {
  const m = state.match;
  if (m) {
    $('match-title').textContent = m.length ? `${m.length}-point match · game ${state.number}` : `Money session · game ${state.number}`;
    const crawford = m.crawfordGame ? ' <span class="badge" title="Crawford game: no doubling">Crawford</span>' : m.postCrawford ? ' <span class="badge muted">post-Crawford</span>' : '';
    $('score').innerHTML = `<span class="chip white"></span>${esc(nameOf('white'))} <b>${m.score[0]}</b> – <b>${m.score[1]}</b> ${esc(nameOf('black'))}<span class="chip black"></span>${crawford}`;
  }
  const n = state.presence ? state.presence.spectators : 0;
  $('watchers').textContent = `${n} watching`;
  const ol = $('moves');
  let turnNo = 0;   // only turns are numbered: the opening roll and notes are not
  const who = m => `<span class="chip ${m.color}" aria-hidden="true"></span><span class="sr-only">${esc(nameOf(m.color))} (${m.color}): </span>`;
  const items = state.moveList.map(m => (m.color && !m.result ? `<li class="${m.color}" value="${++turnNo}">${who(m)}`
    : m.color ? `<li class="info">${who(m)}` : '<li class="info">') + `${m.dice ? `<span class="dice-text">${m.dice.join('')}</span> ` : ''}${esc(m.text)}</li>`);
  if (state.partial.length) items.push(`<li class="pending">${esc(S.formatSteps(S.flatPartial(state), state.you))}…</li>`);
  const html = items.join('');
  if (ol.dataset.html !== html) { ol.innerHTML = html; ol.dataset.html = html; ol.scrollTop = ol.scrollHeight; }
  if (!state.flagsStale) $('position-id').value = state.positionId || '';
  const over = state.match && state.match.status === 'finished';
  for (const id of ['export', 'end-export']) { $(id).hidden = !over; $(id).href = boot.exportUrl; }
  $('replay-link').hidden = state.status !== 'finished';
  $('replay-link').href = `/games/${state.game}/replay/`;
  $('verify-link').hidden = state.status !== 'finished';
  $('verify-link').href = `/games/${state.game}/verify/`;
}

function renderChat() {
  $('chat-title').textContent = state.you ? 'Players’ chat' : 'Spectators’ chat';
  const html = state.chat.map(c => `<li><b>${esc(c.name)}</b> ${esc(c.text)}</li>`).join('');
  const log = $('chat-log');
  if (log.dataset.html !== html) { log.innerHTML = html; log.dataset.html = html; log.scrollTop = log.scrollHeight; }
  $('chat-form').hidden = !boot.loggedIn;
  $('chat-login').hidden = boot.loggedIn;
}

function renderDialog() {
  const g = state.gameEnd;
  // A game that ends a match gets the dialog; any other end shows in the controls (renderControls).
  if (!g || !g.matchOver || endShownFor === `${state.game}`) return;
  endShownFor = `${state.game}`;
  const you = state.you;
  const aborted = g.matchReason === 'aborted' || (!g.matchWinner && g.reason === 'aborted');
  $('end-title').textContent = aborted ? 'Match aborted'
    : !g.matchWinner ? 'Match over'
    : (you ? (g.matchWinner === you ? 'You won the match!' : 'You lost the match') : `${nameOf(g.matchWinner)} wins the match`);
  $('end-body').textContent = aborted
    ? `The match was aborted${state.abortReason ? ` (${state.abortReason})` : ''}: no winner, and no rating change.`
    : `${resultText(g)}${g.matchReason && !['points', 'aborted'].includes(g.matchReason) ? ` The match ended by ${T.REASONS[g.matchReason] || g.matchReason}.` : ''}`;
  $('end-score').textContent = scoreText(g);
  const rc = g.ratingChanges;
  $('end-ratings').hidden = !rc;
  if (rc) $('end-ratings').textContent = 'Ratings: ' + ['white', 'black'].filter(c => rc[c]).map(c =>
    `${nameOf(c)} ${rc[c].rating.toFixed(1)} (${rc[c].change >= 0 ? '+' : ''}${rc[c].change.toFixed(1)})`).join(', ');
  $('end-verify').href = `/games/${state.game}/verify/`;
  $('rematch').hidden = !(g.matchOver && you) || aborted;
  $('end-lobby').hidden = !g.matchOver;
  $('end-export').hidden = !g.matchOver;
  $('end-close').textContent = g.matchOver ? 'Close' : 'Next game';
  $('end-dialog').hidden = false;
  $('end-dialog').dataset.matchOver = g.matchOver ? '1' : '0';
  (g.matchOver && you ? $('rematch') : $('end-close')).focus();
}

function renderRematch() {
  const r = state.rematch;
  if (!r) return;
  if (r.offeredBy && r.offeredBy !== state.you && state.you) $('rematch-note').textContent = `${nameOf(r.offeredBy)} offers a rematch: press Rematch to accept.`;
  if (r.offeredBy && r.offeredBy !== state.you && $('end-dialog').hidden) { endShownFor = null; renderDialog(); }
}

let lastSvg = '', lastBig = null;
function render() {
  const pos = S.currentPosition(state);
  const movable = S.canMoveNow(state);
  const selectable = movable ? S.selectableSources(state) : [];
  const targets = movable && state.selected !== null && state.selected !== undefined ? [...S.targetsFrom(state, state.selected).keys()] : [];
  const diceColor = state.phase === 'move' ? state.actor : state.phase === 'opening' ? null : null;
  const svg = renderBoard({
    pos, you: state.you, numbers: opts.numbers, flipped: opts.flip, selectable, selected: state.selected, targets, cursor,
    dice: state.phase === 'move' ? state.dice : null, diceColor: diceColor || state.turn,
    usedDice: state.actor === state.you ? usedDice() : [], cube: state.cube,
    lastTurn: state.partial.length ? null : state.lastTurn, bigLabels: (lastBig = boardEl.clientWidth < 600),
  });
  if (svg !== lastSvg) { boardEl.innerHTML = svg; lastSvg = svg; }
  boardEl.classList.toggle('my-move', movable);
  renderSeats(); renderControls(); renderPanel(); renderChat(); renderDialog(); renderRematch();
  $('board-desc').textContent = S.describe(state);
  const root = $('game');
  root.dataset.version = state.version; root.dataset.phase = state.phase; root.dataset.actor = state.actor || '';
  root.dataset.game = state.game;
  window.bg = { state, legalMoves: state.legalMoves, version: state.version };
}

render();
connect();
addEventListener('resize', () => { if ((boardEl.clientWidth < 600) !== lastBig) render(); });
addEventListener('pagehide', () => { closedByUs = true; ws && ws.close(); });

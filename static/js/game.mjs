// The game page's wiring: the socket, the messages folded into the state, the actions sent,
// the buttons and the render. The game logic is state.mjs's and play.mjs's (pure); the board's
// input is board_input.mjs, the panels game_panels.mjs, the clocks game_clocks.mjs.
import * as S from './state.mjs';
import { patchBoard, renderBoard } from './board.mjs';
import { boardInput } from './board_input.mjs';
import { playView } from './play.mjs';
import { lastStepSound, planEvent, planMove, speedFactor } from './motion.mjs';
import { motionPlayer } from './motion_player.mjs';
import { headerTurns, loadOptions, saveOption, saveVolume, turnNotice } from './prefs.mjs';
import { sounds, turnChime } from './sound.mjs';
import { $, skipToBoard, toaster } from './lib/dom.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';
import { openSocket } from './lib/socket.mjs';
import { clockOffset, claimIn, tickClocks } from './game_clocks.mjs';
import { namer, renderAway, renderControls, renderPanels, statusText } from './game_panels.mjs';
import { resultPlaque } from './texts.mjs';

const boot = JSON.parse($('boot').textContent);
const boardEl = $('board');
const opts = loadOptions(boot);
const SOUND = sounds(opts);
const toast = toaster($('toast'), 6000);
const savePrefs = name => saveOption(boot, opts, name, () => toast(_('Your settings could not be saved.')));

// The page: the state (state.mjs), the version an action was sent at (one action per version),
// the finished game held on screen, the server's clock minus ours.
const G = { boot, state: S.initialState(), sent: null, hold: null, offset: 0 };
G.state = S.reduce(G.state, boot.snapshot);
G.state = { ...G.state, moveList: S.fold(S.initialState(), boot.history).moveList };

function send(t, d = {}, withVersion = true) {
  const msg = { t, d };
  if (withVersion) { msg.v = G.state.version; msg.game = G.state.game; }
  if (socket.send(msg)) return true;
  toast(_('Not connected: reconnecting…'));
  return false;
}

function act(t, d = {}) {
  if (G.sent === G.state.version) return;      // one action per version; the server answers with the next
  if (send(t, d)) G.sent = G.state.version;
}

// The tutor (static/js/aids.mjs, unrated matches with aids) may check an action before it is sent.
function gated(t, d = {}) {
  if (!window.aidsGate) { act(t, d); return; }
  window.aidsGate(t, d).then(ok => { if (ok) act(t, d); });
}

const queue = [];
let scheduled = false;
function receive(msg) {
  queue.push(msg);
  if (!scheduled) { scheduled = true; queueMicrotask(flush); }
}

// The end of a game stays on screen (the final position, the result, the score): the next
// game's messages wait here until the player presses "Next game" or GAMES_NEXT_GAME_DELAY
// seconds pass, or at once when the next game waits for the player (issue 28: input is never
// blocked longer than the animation of his own play). ``next``: the held messages folded.
const NEXT_DELAY = (boot.nextGameDelay ?? 8) * 1000;
function holdNext() {
  G.hold = { msgs: [], until: Date.now() + NEXT_DELAY, timer: setTimeout(releaseNext, NEXT_DELAY) };
}
function releaseNext() {
  if (!G.hold) return;
  const msgs = G.hold.msgs;
  clearTimeout(G.hold.timer); G.hold = null;
  if (msgs.length) for (const m of msgs) receive(m); else render();
}
const nextGameMsg = msg => (msg.t === 'snapshot' ? msg.d.game : msg.game) !== G.state.game &&
  (msg.t === 'snapshot' || (msg.game !== undefined && msg.game !== null));

function flush() {
  scheduled = false;
  const before = G.state;
  const planned = [];
  const animates = motion.animates;
  let jump = false;
  for (const msg of queue.splice(0)) {
    if (msg.t === 'error') { onError(msg.d); continue; }
    if (msg.t === 'suspended') { toast(interpolate(_('%(name)s was suspended by an administrator: the match ends (a forfeit).'), { name: msg.d.name }, true), 'suspended'); continue; }
    if (G.hold && nextGameMsg(msg)) { G.hold.msgs.push(msg); G.hold.next = S.reduce(G.hold.next || G.state, msg); continue; }
    // the movement of this event (motion.mjs), shown before the state it leads to; a snapshot
    // of another position (a resync, the next game) jumps there at once. Its sounds play as
    // its pieces land; not animated, the event has its one sound now.
    if (msg.t === 'snapshot') jump = jump || msg.d.game !== G.state.game || (msg.v ?? msg.d.version) !== G.state.version;
    else {
      const phases = planEvent(G.state, msg, motionView());
      if (!animates) motion.heard(phases);
      planned.push(...phases);
    }
    const prevGame = G.state.game;
    G.state = S.reduce(G.state, msg);
    const state = G.state;
    if (msg.t === 'game_end' && msg.game === state.game && state.gameEnd && !state.gameEnd.matchOver && state.gameEnd.nextGame) holdNext();
    const offset = clockOffset(msg);
    if (offset !== undefined) G.offset = offset;
    if (state.game !== prevGame && prevGame !== null) history.replaceState(null, '', `/games/${state.game}/`);
    if (msg.t === 'rematch_start' && state.rematch && state.rematch.game) {
      socket.close(); location.assign(`/games/${state.rematch.game}/`); return;
    }
  }
  if (jump) motion.finish(); else motion.play(planned);
  if (G.hold && G.hold.next && G.hold.next.game !== G.state.game && S.yourTurn(G.hold.next)) releaseNext();   // flushed next
  const state = G.state;
  if (state.version !== before.version || state.game !== before.game) { G.sent = null; input.resetCursor(); }
  const chime = turnChime(before.actor, state.actor, state.you);
  if (chime) SOUND[chime]();
  noticeTurn();
  if (state.needResync) socket.resync(state.version, state.game);
  afterChange();
}

function afterChange() {
  // Events carry the cube flags, the clocks and the Position ID in their "state"; an event
  // without one (game_start) is followed by a snapshot request (once per version).
  if (G.state.flagsStale && !G.state.needResync) socket.resync(null, G.state.game);
  render();
  autoplay();
}

function autoplay() {
  const state = G.state;
  if (!state.you || state.actor !== state.you || G.sent === state.version) return;
  if (state.phase === 'turn' && opts.autoroll && !state.flagsStale) act('roll');
  else if (state.phase === 'move' && !state.partial.length) {
    if (S.mustPass(state) && opts.forced) act('move', { moves: [] });
    else { const f = S.forcedPlay(state); if (f && opts.forced) act('move', { moves: f }); }
  }
}

const ERRORS = () => ({
  stale_version: _('The game moved on before your action arrived; here is the current position.'),
  not_your_turn: _('It is not your turn.'),
  spectator: _('Spectators cannot play.'),
  login_required: _('Log in to do that.'),
  rate_limited: _('Slow down: too many messages.'),
});
function onError(d) {
  G.sent = null;
  toast(ERRORS()[d.code] || d.message || d.code, d.code);
}

// -- input: the board, the buttons, the forms -----------------------------------------------------
const input = boardInput({
  board: boardEl, dragLayer: $('drag-layer'),
  get: () => G.state, set: s => { G.state = s; }, render,
  confirm: play => gated('move', { moves: play }),
  enter: () => { if (G.state.phase === 'turn' && G.state.actor === G.state.you) act('roll'); },
  moved: dragged => { if (dragged || !slideOwnStep()) ownStepSound(); },   // a dragged checker is there: heard now
  options: () => opts,
});

document.querySelectorAll('[data-act]').forEach(btn => btn.addEventListener('click', () => {
  const a = btn.dataset.act;
  if (a === 'undo') input.undo();
  else if (a === 'confirm') input.confirmPlay();
  else if (a === 'pass') act('move', { moves: [] });
  else if (a === 'claim') send('claim', {}, false);
  else if (a === 'next') releaseNext();
  else gated(a);
}));
document.querySelectorAll('[data-resign]').forEach(btn => btn.addEventListener('click', () => {
  const ask = { 1: _('Offer to resign a single game?'), 2: _('Offer to resign a gammon?'), 3: _('Offer to resign a backgammon?') };
  if (confirm(ask[btn.dataset.resign])) act('resign_offer', { level: Number(btn.dataset.resign) });
}));
$('rematch').addEventListener('click', () => { send('rematch', {}, false); $('rematch-note').textContent = _('Rematch offered: waiting for your opponent…'); });
$('end-close').addEventListener('click', () => { $('end-dialog').hidden = true; });

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') motion.finish();   // no frames come to a hidden tab
  noticeTurn();
});
function noticeTurn() {
  const mine = S.yourTurn(G.state);
  turnNotice(mine && document.visibilityState === 'hidden');
  if (boot.turnsElsewhere != null) headerTurns(boot.turnsElsewhere + (mine ? 1 : 0));   // the count in the header, with this game live
}
const volume = $('opt-volume');
volume.value = Math.round(opts.volume * 100);
volume.addEventListener('input', () => { opts.volume = volume.value / 100; saveVolume(opts.volume); });
$('copy-posid').addEventListener('click', async () => {
  const field = $('position-id'); field.select();
  try { await navigator.clipboard.writeText(field.value); } catch { document.execCommand('copy'); }
  $('copy-posid').textContent = _('Copied');
});
$('chat-form').addEventListener('submit', e => {
  e.preventDefault();
  const field = $('chat-input'), text = field.value.trim();
  if (text && send('chat', { text }, false)) field.value = '';
});
for (const [id, name] of [['opt-forced', 'forced'], ['opt-autoroll', 'autoroll'], ['opt-sound', 'sound'], ['opt-flip', 'flip']]) {
  const box = $(id); box.checked = opts[name];
  box.addEventListener('change', () => {
    opts[name] = box.checked; savePrefs(name); render(); autoplay();
  });
}

// -- rendering ------------------------------------------------------------------------------------
let lastSvg = '', lastBig = null;
const reducedMotion = window.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };
const plaque = result => resultPlaque(result, namer(G.state));
const motionView = () => ({ you: G.state.you, flipped: opts.flip, bigLabels: boardEl.clientWidth < 600, plaque });
const motion = motionPlayer({
  sound: name => SOUND[name](),
  board: boardEl,
  draw: phase => renderBoard({ ...motionView(), pos: phase.pos, numbers: opts.numbers, dice: phase.dice,
    diceColor: phase.diceColor, cube: phase.cube, lastTurn: null }),
  idle: () => { lastSvg = ''; render(); },
  factor: () => speedFactor(opts.animation, reducedMotion.matches),
});

/** The position before the player's last step, and that step. */
function lastOwnStep() {
  const state = G.state, steps = state.partial[state.partial.length - 1];
  return { steps, before: S.currentPosition({ ...state, partial: state.partial.slice(0, -1) }) };
}
/** A checker the player moved by a click or a key slides there (a dragged one is there already):
 *  false when it is not seen moving. */
function slideOwnStep() {
  const state = G.state, { steps, before } = lastOwnStep();
  if (!steps || motion.busy || !motion.animates) return false;
  motion.play(planMove(before, state.you, steps, motionView(), { dice: state.dice, diceColor: state.you, cube: state.cube }));
  return true;
}
function ownStepSound() {
  const name = lastStepSound(G.state);
  if (name) SOUND[name]();
}

/** What the board shows of ``state``, when nothing moves. */
const boardView = state => ({
  ...playView(state), you: state.you, numbers: opts.numbers, flipped: opts.flip, cursor: input.cursor,
  dice: state.phase === 'move' ? state.dice : null, diceColor: (state.phase === 'move' && state.actor) || state.turn, cube: state.cube,
  lastTurn: state.partial.length ? null : state.lastTurn, bigLabels: boardEl.clientWidth < 600,
  result: state.status === 'finished' && state.result ? plaque(state.result) : null,
  rollPrompt: !!state.you && state.actor === state.you && state.phase === 'turn' && state.status !== 'finished' &&
    !state.flagsStale && G.sent !== state.version,
});

// Rolling by hand: a click on the dice drawn in your half (as the Roll button).
boardEl.addEventListener('click', e => {
  const hit = [...boardEl.querySelectorAll('.roll-me')].some(d => {
    const r = d.getBoundingClientRect();
    return e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
  });
  if (hit && G.state.phase === 'turn' && G.state.actor === G.state.you) act('roll');
});

function render() {
  const state = G.state;
  const svg = renderBoard(boardView(state));
  lastBig = boardEl.clientWidth < 600;
  G.moving = motion.busy;
  if (!motion.busy && svg !== lastSvg) { patchBoard(boardEl, svg); lastSvg = svg; }   // moving: the player draws
  boardEl.classList.toggle('my-move', S.canMoveNow(state));
  renderPanels(G);
  $('board-desc').textContent = S.describe(state);
  const root = $('game');
  root.dataset.version = state.version; root.dataset.phase = state.phase; root.dataset.actor = state.actor || '';
  root.dataset.game = state.game;
  window.bg = { state, legalMoves: state.legalMoves, version: state.version, animating: motion.busy,
    boardMarkup: () => renderBoard(boardView(G.state)) };   // for tests: the board with no animation
}

setInterval(() => tickClocks(G.state, G.offset), 250);
setInterval(() => {
  if (claimIn(G.state, G.offset) !== null || G.hold) { renderAway(G); $('status-line').textContent = statusText(G); renderControls(G); }
}, 1000);

// -- the socket (lib/socket.mjs: ?v=, the idle ping, dead sockets, back-off) ----------------------
// The server pings after 5 s of silence with the game and version it has sent us; we ping
// only when that is late (10 s of silence) or shows us behind (docs/PROTOCOL.md, "Delivery").
const socket = openSocket({   // opened last: its frames need the whole page
  path: () => `/ws/games/${G.state.game}/`,
  version: () => G.state.version,
  ping: () => ({ t: 'ping', d: {}, v: G.state.version, game: G.state.game }),
  behind: d => (d.game === G.state.game ? d.v > (G.state.version ?? 0) : d.game > G.state.game && !G.hold),
  onFrame: receive,
  onState(st, code) {
    document.body.dataset.connected = st === 'open' ? '1' : '0';
    if (st === 'stopped' && code === 4003) $('banner').textContent = _('Your account is suspended.');   // docs/PROTOCOL.md
    $('banner').hidden = st === 'open' || st === 'connecting';
    if (st !== 'open') G.sent = null;
  },
});
skipToBoard(boardEl);
render();
addEventListener('resize', () => { if ((boardEl.clientWidth < 600) !== lastBig) render(); });
addEventListener('pagehide', () => socket.close());

// The chouette page: one socket (/ws/chouettes/<id>/, lib/socket.mjs), the state the server
// sends, the board and the buttons. The player on roll moves the checkers on the board as in
// a match (board_input.mjs), and a team member who may consult moves them to suggest a play.
// The pure part is chouette_state.mjs; window.ch exposes the state for tests. A game's end is
// held on the board (its final position and the result's plaque) for the game page's delay,
// or until the end dialog is closed, while the next game starts underneath. The sounds are the
// game page's: each as its piece lands (motion_player.mjs), one per event when not seen moving.
import { patchBoard, renderBoard } from './board.mjs';
import { boardInput } from './board_input.mjs';
import {
  actorOf, boardCube, boardSide, boardState, canStart, endHeld, endPlaque, canMove, canSuggest, cubeNote, cubeRows, decisionButtons, lineRows, nameOf, offersFor,
  playText, roleOf, roleWord, roomWord, secondsLeft, settleableCubes, statusText, suggestionParts, waitingFor, waitReason,
} from './chouette_state.mjs';
import { $, esc, setHTML, skipToBoard, toaster } from './lib/dom.mjs';
import { gettext as _, interpolate, pgettext } from './lib/i18n.mjs';
import { openSocket, order } from './lib/socket.mjs';
import { moveHint, partialFor, playView } from './play.mjs';
import { START_POSITION, applySteps, canMoveNow, completedPlay, flatPartial, formatSteps, mustPass } from './state.mjs';
import { lastStepSound, planCube, planMove, planResult, planRoll, speedFactor } from './motion.mjs';
import { motionPlayer } from './motion_player.mjs';
import { loadOptions } from './prefs.mjs';
import { sounds, turnChime } from './sound.mjs';

const boot = JSON.parse($('boot').textContent);
const SOUND = sounds(loadOptions(boot));   // the sound option and this device's volume, as on the game page
const NEXT_DELAY = (boot.nextGameDelay ?? 8) * 1000;
// ``held``: the end of the last game on the board ({number, pos, plaque, end, until}); ``moved``:
// the steps of the last move event not yet followed by a state; ``actor``: actorOf's, for the chime.
const S = { version: 0, st: null, chat: [], you: boot.you, held: null, moved: null, actor: null, board: boardState({}, boot.you),
  cube: null, sent: null };
window.ch = S;
const toast = toaster($('toast'), 4000);

function send(t, d = {}, withVersion = false) {
  const msg = { t, d };
  if (withVersion) msg.v = S.version;
  return socket.send(msg);
}
const act = (t, d) => send(t, d, true);

function receive(msg) {
  if (msg.t === 'snapshot') {
    S.st = msg.d; S.version = msg.v; S.sent = null; S.cube = boardCube(S.st, S.you); S.moved = null;
    motion.finish();
    if (msg.d.lastEnd) holdEnd(msg.d.lastEnd, msg.d.lastEnd.ago * 1000);
    render();
    chimeTurn();   // a resync's snapshot may bring the turn to you, as on the game page
    if (S.held && S.held.dialog) showEnd();
    return;
  }
  if (msg.t === 'chat_history') { S.chat = msg.d.messages; renderChat(); return; }
  if (msg.t === 'chat') { S.chat.push(msg.d); renderChat(); return; }
  if (msg.t === 'error') { S.sent = null; toast(msg.d.message, msg.d.code); return; }
  if (msg.t === 'presence') {
    const seat = S.st && (S.st.seats || []).find(x => x.player === msg.d.player);
    if (seat) { seat.away = msg.d.away; render(); }
    return;
  }
  if (msg.t === 'pong') { if (msg.d.v > S.version) socket.resync(S.version); return; }
  if (msg.v == null) return;
  const where = order(S.version, msg.v);
  if (where === 'seen') return;
  if (where === 'gap') { socket.resync(S.version); return; }
  S.version = msg.v;
  if (msg.t === 'move') S.moved = msg.d.steps || msg.d.moves || null;
  if (msg.t === 'game_end' && S.st) endGame(msg.d);   // caught up before the first state: the snapshot's lastEnd says it
  if (msg.state) {
    const before = S.board;
    S.st = { ...msg.state, you: S.you };
    show(chouetteMotion(before, boardState(S.st, S.you)));
    S.moved = null;
    render();
    chimeTurn();
  }
}

/** The turn's chime when the game comes to you or leaves you (none for a watcher, nor on the first state). */
function chimeTurn() {
  const actor = actorOf(S.st, S.you), chime = turnChime(S.actor, actor, S.you);
  S.actor = actor;
  if (chime) SOUND[chime]();
}

/** Plans (one per event), seen moving or, when not (animation off, a hidden tab, the end held
 *  on the board), each heard at once: the game page's way (motion_player.mjs's ``heard``). */
function show(plans) {
  const held = holding() && plans !== S.held.plans;   // the next game's events under the end: heard, not seen
  if (!motion.animates || held) { for (const p of plans) motion.heard(p); if (!held) motion.finish(); return; }
  motion.play(plans.flat());
}

// -- a game's end: the last play, then the result comes down onto the final position -------------
/** Hold the end ``end`` (a game_end's fields, or the snapshot's lastEnd) on the board for what is
 *  left of the delay (``ago``: ms since it ended); with no game after it, for as long as none starts. */
function holdEnd(end, ago = 0) {
  if (S.held && S.held.number === end.number) return;
  const live = S.st && S.st.game && S.st.game.number > end.number;
  if (live && ago >= NEXT_DELAY) return;
  S.held = { number: end.number, end, pos: end.position, plaque: endPlaque(end.result, S.st), until: Date.now() + NEXT_DELAY - ago,
    dialog: ago < NEXT_DELAY };
  setTimeout(() => drawPlay(), NEXT_DELAY - ago + 20);
}

function endGame(end) {
  if (!end.position) return;   // an event stored before the final position was sent with it
  const before = S.board, view = { you: before.you, bigLabels: $('board').clientWidth < 600 }, plans = [];
  const steps = S.moved, color = before.turn;
  if (steps && steps.length && before.game && !before.partial.length) {   // the mover's own play is there already
    const { pos } = applySteps(before, color, steps);
    if (samePos(pos, end.position)) plans.push(planMove(before, color, steps, view, { dice: before.dice, diceColor: color, cube: S.cube }));
  }
  S.moved = null;
  S.held = null;
  holdEnd(end);
  const final = { ...before, ...end.position };
  plans.push(planResult(final, { matchOver: false }, view, { dice: null, cube: null }, S.held.plaque));
  S.held.plans = plans;
  S.held.you = before.you;   // drawn from the side the viewer played it from (his role may change with the next game)
  show(plans);
  if (!motion.busy) showEnd();   // seen at once: the dialog now; else once the result has landed
}

const posKey = p => JSON.stringify([p.board, p.whiteBar, p.blackBar, p.whiteOff, p.blackOff]);
const samePos = (a, b) => posKey(a) === posKey(b);
/** The end is on the board (chouette_state.mjs's endHeld): not once the next game waits for you. */
const holding = () => endHeld(S.held, S.st, S.you, Date.now());
/** The next game waits for you: its end gives way at once, its dialog closed (the line keeps the scores). */
function releaseForYou() {
  if (!S.held || S.held.closed || holding() || actorOf(S.st, S.you) !== S.you) return;
  S.held.closed = true; S.held.dialog = false;
  $('end-dialog').hidden = true;
}

// -- rendering -----------------------------------------------------------------------------------
function render() {
  const st = S.st;
  if (!st) return;
  const you = S.you, role = roleOf(st, you), g = st.game;
  document.body.dataset.role = role;
  $('chouette').dataset.version = S.version;
  $('you-are').textContent = you == null ? _('You are watching.') : interpolate(_('You are %(role)s.'), { role: roleWord(role) }, true);
  $('status-line').textContent = statusText(st, you);
  S.board = boardState(st, you, S.board);
  drawPlay();
  setHTML($('cube-row'), cubeRows(st).map(c => `<li class="${c.owner || 'centre'}${c.out ? ' out' : ''}${c.pending ? ' pending' : ''}" data-cube="${c.member}">` +
    `<span class="cube-face">${c.value}</span> ${esc(c.name)}${c.holder !== c.name ? ` (${esc(c.holder)})` : ''}` +
    ` <small>${esc(cubeNote(c))}</small></li>`).join(''));
  setHTML($('line'), lineRows(st, you).map(r => `<li class="${r.you ? 'you' : ''}" data-player="${r.id}">` +
    `<span class="who">${esc(r.name)} <span class="badge ${r.role}">${esc(roleWord(r.role))}</span>${r.away ? ` <span class="badge away">${esc(_('away'))}</span>` : ''}${r.out ? ` <small>${esc(_('(out)'))}</small>` : ''}</span>` +
    `<span class="score" data-score="${r.score}">${r.score}</span>${r.game ? ` <small>(${r.game > 0 ? '+' : ''}${r.game})</small>` : ''}</li>`).join(''));
  renderWaiting();
  // cube decisions
  setHTML($('actions'), decisionButtons(st, you).map((b, i) => `<button type="button" class="button${b.t.startsWith('no_') || b.t === 'drop' ? ' alt' : ''}" data-i="${i}" data-act="${b.t}"${b.d.cube != null ? ` data-cube="${b.d.cube}"` : ''}>${esc(b.label)}</button>`).join(''));
  S.buttons = decisionButtons(st, you);
  // the table
  const seated = (st.seats || []).some(s => s.player === you && s.active);
  $('start').hidden = !canStart(st, you);
  $('restart').hidden = !(st.status === 'open' && st.session && seated);
  $('join').hidden = !(you != null && !seated && st.status !== 'finished');
  $('bot-form').hidden = !(seated && st.status !== 'finished');
  $('leave').hidden = !seated;
  $('settle-open').hidden = !(g && (settleableCubes(st, you).length || offersFor(st, you).toYou.length));
  renderSettle();
  renderRooms(role);
  renderChat();
}

// -- the board: the play being made ----------------------------------------------------------------
/** The play goes to the table (the player on roll, once per version) or to the team (a suggestion). */
function sendPlay(steps) {
  if (canMove(S.st, S.you)) {
    if (S.sent !== S.version && act('move', { steps })) S.sent = S.version;
  } else if (canSuggest(S.st, S.you)) send('suggest', { steps });
}

const input = boardInput({
  board: $('board'), dragLayer: $('drag-layer'),
  get: () => S.board, set: b => { S.board = b; }, render: drawPlay, confirm: sendPlay,
  moved: () => { const name = lastStepSound(S.board); if (name) SOUND[name](); },   // heard as it is made, as in a game
});

// The movement between two states of the table (motion.mjs): the last play slides when it is
// new and leads from the board shown to the new one; new dice tumble in; the cube on the board
// (boardCube) turns when it is offered and travels to its new owner's side when taken.
const reduced = window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches;
const motion = motionPlayer({
  board: $('board'), idle: () => { drawPlay(); showEnd(); },   // the end's dialog once its result has landed
  sound: name => SOUND[name](),
  draw: ph => renderBoard({ pos: ph.pos, you: S.board.you, dice: ph.dice, diceColor: ph.diceColor, cube: ph.cube, lastTurn: null }),
  factor: () => speedFactor(boot.animation, reduced),
});
function chouetteMotion(before, after) {
  const g = S.st.game, view = { you: after.you }, plans = [];
  const cubeBefore = S.cube, cube = S.cube = boardCube(S.st, S.you);
  if (!g || before.game !== after.game) return [];
  const roll = after.dice && (!before.dice || before.turnNumber !== after.turnNumber);
  if (before.turnNumber !== after.turnNumber && g.lastPlay && g.lastPlay.length && !before.partial.length) {
    const color = g.lastMover === 'box' ? 'white' : 'black';
    const { pos } = applySteps(before, color, g.lastPlay);
    const key = p => JSON.stringify([p.board, p.whiteBar, p.blackBar, p.whiteOff, p.blackOff]);
    if (key(pos) !== key(after)) return [];   // not the next position: show it at once
    plans.push(planMove(before, color, g.lastPlay, view, { dice: before.dice, diceColor: color, cube: cubeBefore }));
  }
  if (roll) plans.push(planRoll(after, after.turn, after.dice, view, { dice: null, cube }));
  if (cubeBefore && cube && cubeBefore.member === cube.member && (cubeBefore.value !== cube.value || cubeBefore.owner !== cube.owner)) {
    plans.push(planCube(after, cubeBefore, cube, cube.value, view, { dice: after.dice, diceColor: after.turn }));
  }
  return plans;
}

function drawPlay() {
  releaseForYou();
  const g = S.st && S.st.game, b = S.board, held = holding() && S.held;
  const movable = !!g && !held && canMoveNow(b);
  $('chouette').dataset.held = held ? String(held.number) : '';
  if (motion.busy) { /* the player draws */ } else if (held) {
    patchBoard($('board'), renderBoard({ pos: held.pos, you: held.you || b.you, flipped: false, dice: null, cube: null, lastTurn: null,
      result: held.plaque, bigLabels: $('board').clientWidth < 600 }));
  } else patchBoard($('board'), g ? renderBoard({
    ...playView(b), you: b.you, flipped: false, cursor: input.cursor, dice: g.dice, diceColor: b.turn, cube: boardCube(S.st, S.you),
    lastTurn: !b.partial.length && g.lastPlay && g.lastPlay.length ? { color: g.lastMover === 'box' ? 'white' : 'black', moves: g.lastPlay } : null,
  }) : renderBoard({ pos: START_POSITION, you: S.st ? boardSide(S.st, S.you) : 'white', flipped: false, dice: null, cube: null, lastTurn: null,
    bigLabels: $('board').clientWidth < 600 }));   // the table set, before its first game
  $('board').classList.toggle('my-move', movable);
  const moving = movable && canMove(S.st, S.you), passing = movable && mustPass(b);
  $('plays').hidden = !movable;
  $('keys-hint').hidden = !movable;
  setHTML($('play-text'), !movable ? '' : (b.partial.length ? `<b>${esc(formatSteps(flatPartial(b), b.you))}</b> · ` : '') +
    esc(moveHint(b, moving ? undefined : _('Suggest it to the team (Enter), or undo.'))));
  $('play-undo').hidden = !b.partial.length;
  $('play-confirm').hidden = !moving || passing;
  $('play-suggest').hidden = moving || passing;
  $('play-pass').hidden = !(moving && passing);
  const ready = !!completedPlay(b) && S.sent !== S.version;
  $('play-confirm').disabled = !ready;
  $('play-suggest').disabled = !ready;
}

function renderWaiting() {
  const st = S.st;
  const waiting = waitingFor(st);
  const left = secondsLeft(st);
  const who = waiting.map(w => `<span data-waiting="${w.id}">${esc(w.name)}</span> (${esc(waitReason(w.reason))})`).join(', ');
  const timer = left != null ? ` <span class="timer" id="timer">${esc(interpolate(_('%(seconds)s s'), { seconds: left }, true))}</span>` : '';
  setHTML($('waiting-for'), waiting.length ? interpolate(esc(_('Waiting for %(players)s')), { players: who }, true) + timer : '');
}
setInterval(() => { if (S.st) renderWaiting(); }, 1000);

function renderSettle() {
  const st = S.st, you = S.you;
  const { toYou, byYou } = offersFor(st, you);
  const offer = o => interpolate(o.amount > 0 ? _("%(from)s offers to receive %(amount)s on %(name)s's cube") : _("%(from)s offers to pay %(amount)s on %(name)s's cube"),
    { from: o.from, amount: Math.abs(o.amount), name: o.name }, true);
  setHTML($('offers'), toYou.map(o => `<div class="offer" data-offer="${o.cube}">${esc(offer(o))} ` +
    `<button type="button" class="button small" data-settle="accept_settlement" data-cube="${o.cube}">${esc(_('Accept'))}</button>` +
    `<button type="button" class="button small alt" data-settle="reject_settlement" data-cube="${o.cube}">${esc(_('Reject'))}</button></div>`).join('') +
    byYou.map(o => `<div class="offer">${esc(interpolate(_("Your offer on %(name)s's cube: %(amount)s"), { name: o.name, amount: o.amount }, true))} ` +
      `<button type="button" class="button small ghost" data-settle="withdraw_settlement" data-cube="${o.cube}">${esc(pgettext('withdraw an offer', 'Withdraw'))}</button></div>`).join(''));
  const cubes = settleableCubes(st, you);
  $('settle-form').hidden = !cubes.length;
  const checked = new Set([...document.querySelectorAll('#settle-cubes input:checked')].map(i => Number(i.value)));
  const keep = cubes.some(c => checked.has(c.member));  // a choice made among these cubes; else all of them
  setHTML($('settle-cubes'), cubes.map(c => `<label><input type="checkbox" value="${c.member}"${!keep || checked.has(c.member) ? ' checked' : ''}> ${esc(interpolate(_("%(name)s's cube (%(value)s)"), { name: c.name, value: c.value }, true))}</label>`).join(''));
}

function renderRooms(role) {
  const rooms = role === 'spectator' ? ['spectators'] : (role === 'captain' || role === 'crew') ? ['table', 'team'] : ['table'];
  const sel = $('chat-room'), keep = sel.value;
  if (sel.dataset.rooms !== rooms.join()) {
    sel.innerHTML = rooms.map(r => `<option value="${r}">${esc(roomWord(r))}</option>`).join('');
    sel.dataset.rooms = rooms.join();
    if (rooms.includes(keep)) sel.value = keep;
  }
}

// A chat line's words: a suggested play is worded here, in the reader's language, its notation in a <bdi>.
function lineHtml(m) {
  if (!m.play) return esc(m.text);
  const [before, play, after] = suggestionParts(m.play);
  return `${esc(before)}<bdi class="notation">${esc(play)}</bdi>${esc(after)}`;
}

function renderChat() {
  $('chat-log').innerHTML = S.chat.slice(-80).map(m => `<li class="${m.room}"><b>${esc(m.name)}</b> <small>${esc(roomWord(m.room))}</small>: ${lineHtml(m)}</li>`).join('');
  $('chat-log').scrollTop = 1e9;
  const g = S.st && S.st.game;
  const sugg = S.chat.filter(m => m.play && g && m.game === g.id);
  $('suggestions-box').hidden = !sugg.length;
  setHTML($('suggestions'), sugg.map(m => `<li data-play='${esc(JSON.stringify(m.play))}'>${esc(m.name)}: <bdi class="notation">${esc(playText(m.play))}</bdi></li>`).join(''));
}

function showEnd() {
  if (!S.held || !S.held.dialog) return;
  const end = S.held.end;
  S.held.dialog = false;   // opened once
  $('end-title').textContent = interpolate(_('Game %(number)s is over'), { number: end.number }, true);
  $('end-lines').innerHTML = end.lines.map(l => `<li>${esc(l)}</li>`).join('') +
    `<li><b>${esc(_('Scores:'))}</b> ${end.scores.map(([p, s]) => `${esc(nameOf(S.st, p))} ${s}`).join(', ')}</li>`;
  $('end-dialog').hidden = false;
}

// -- input ---------------------------------------------------------------------------------------
$('actions').addEventListener('click', e => {
  const b = e.target.closest('button[data-i]');
  if (b) act(S.buttons[Number(b.dataset.i)].t, S.buttons[Number(b.dataset.i)].d);
});
$('play-undo').addEventListener('click', () => input.undo());
$('play-confirm').addEventListener('click', () => input.confirmPlay());
$('play-suggest').addEventListener('click', () => input.confirmPlay());
$('play-pass').addEventListener('click', () => sendPlay([]));
// A suggested play, clicked, is set out on the board (to confirm, or to change).
$('suggestions').addEventListener('click', e => {
  const li = e.target.closest('li[data-play]');
  const partial = li && partialFor(S.board, JSON.parse(li.dataset.play));
  if (partial) { S.board = { ...S.board, partial, selected: null }; drawPlay(); }
});
$('start').addEventListener('click', () => send('start'));
$('restart').addEventListener('click', () => send('restart'));
$('join').addEventListener('click', () => send('join'));
$('leave').addEventListener('click', () => { if (confirm(_('Leave this chouette?'))) send('leave_table'); });
$('add-bot').addEventListener('click', () => send('add_bot', { level: $('bot-level').value }));
$('settle-open').addEventListener('click', () => { $('settle-dialog').hidden = false; });
$('settle-close').addEventListener('click', () => { $('settle-dialog').hidden = true; });
$('end-close').addEventListener('click', () => {
  $('end-dialog').hidden = true;
  if (S.held) { S.held.closed = true; S.held.dialog = false; }   // the next game, now
  drawPlay();
});
$('settle-form').addEventListener('submit', e => {
  e.preventDefault();
  const cubes = [...document.querySelectorAll('#settle-cubes input:checked')].map(i => Number(i.value));
  act('propose_settlement', { amount: Number($('settle-amount').value), cubes });
});
$('offers').addEventListener('click', e => {
  const b = e.target.closest('button[data-settle]');
  if (b) act(b.dataset.settle, { cube: Number(b.dataset.cube) });
});
$('chat-form').addEventListener('submit', e => {
  e.preventDefault();
  const text = $('chat-input').value.trim();
  if (text) send('chat', { text, room: $('chat-room').value });
  $('chat-input').value = '';
});

const socket = openSocket({   // opened last: its frames need the whole page
  path: `/ws/chouettes/${boot.chouette}/`,
  version: () => S.version,
  onFrame: receive,
  onState(st) {
    $('banner').hidden = st === 'open' || st === 'connecting';
    if (st !== 'open') S.sent = null;
  },
});
skipToBoard($('board'));

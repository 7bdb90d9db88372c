// The game page's panels around the board: the seats, the status line and its buttons, the
// absent opponent's note, the match panel with the move list, the chat, the end-of-match
// dialog and the rematch note. Each reads the page ``G`` (game.mjs): ``state``, ``hold`` (the
// finished game kept on screen), ``sent`` (the version an action was sent at), ``offset``
// (the server's clock minus ours) and ``boot``.
import { $, cap, esc } from './lib/dom.mjs';
import * as S from './state.mjs';
import * as T from './texts.mjs';
import { claimIn, tickClocks } from './game_clocks.mjs';
import { moveHint } from './play.mjs';

const nameOf = (state, c) => (state.match && state.match[c] ? state.match[c].name : cap(c));
const namer = state => c => nameOf(state, c);

export function renderSeats(G) {
  const state = G.state, me = state.you || 'white', opp = S.OTHER[me];
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
  tickClocks(state, G.offset);
}

export function statusText(G) {
  const state = G.state, you = state.you, name = namer(state);
  if (state.status === 'finished' || state.phase === 'over') {
    const g = state.gameEnd;
    if (G.hold && g) return `${T.resultText(state.result, name)} ${T.scoreText(g, state.match, name)}. Next game in ${Math.max(0, Math.ceil((G.hold.until - Date.now()) / 1000))} s.`;
    return T.resultText(state.result, name);
  }
  if (state.phase === 'opening') return 'Opening roll…';
  const actorName = state.actor === you ? 'You' : name(state.actor);
  switch (state.phase) {
    case 'move':
      return state.actor === you ? moveHint(state) : `${actorName} to move.`;
    case 'turn': return state.actor === you ? 'Your turn: roll or double.' : `${actorName} to roll.`;
    case 'cube_offered': return state.actor === you ? `Double to ${state.cube.offered || state.cube.value * 2}: take or pass?` : `${actorName} is considering the double.`;
    case 'resign_offered':
      return state.actor === you ? `${name(state.resignOffer.by)} offers to resign a ${state.resignOffer.name}.` : `Waiting for an answer to the resignation (${state.resignOffer.name}).`;
    default: return '';
  }
}

export function renderControls(G) {
  const state = G.state, you = state.you, mine = you && state.actor === you && state.status !== 'finished';
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
    claim: !!you && state.status !== 'finished' && claimIn(state, G.offset) === 0,
    next: !!G.hold,
  };
  for (const btn of document.querySelectorAll('[data-act]')) {
    btn.hidden = !show[btn.dataset.act];
    btn.disabled = G.sent === state.version && btn.dataset.act !== 'undo';
  }
  $('controls').querySelector('[data-act=confirm]').disabled = !S.completedPlay(state) || G.sent === state.version;
  $('status-line').textContent = statusText(G);
  $('game-over-links').hidden = !G.hold && state.status !== 'finished';   // a finished game's page too
  $('over-replay').href = `/games/${state.game}/replay/`;
  $('over-verify').href = `/games/${state.game}/verify/`;
  renderAway(G);
  $('resign-box').hidden = !you || state.status === 'finished' || state.phase === 'resign_offered';
}

/** An absent opponent: a countdown, then the claim (the server waits GAMES_ABSENCE_GRACE). */
export function renderAway(G) {
  const state = G.state, left = claimIn(state, G.offset), note = $('away-note');
  note.hidden = left === null;
  if (left === null) return;
  const who = nameOf(state, S.OTHER[state.you]);
  note.textContent = left > 0 ? `${who} left the table: if they are not back in ${T.fmtClock(left)}, you can claim the match.`
    : `${who} has been away too long: you may claim the match (or keep waiting).`;
  $('controls').querySelector('[data-act=claim]').hidden = left > 0;
}

export function renderPanel(G) {
  const state = G.state, m = state.match, name = namer(state);
  if (m) {
    $('match-title').textContent = m.length ? `${m.length}-point match · game ${state.number}` : `Money session · game ${state.number}`;
    const crawford = m.crawfordGame ? ' <span class="badge" title="Crawford game: no doubling">Crawford</span>' : m.postCrawford ? ' <span class="badge muted">post-Crawford</span>' : '';
    $('score').innerHTML = `<span class="chip white"></span>${esc(name('white'))} <b>${m.score[0]}</b> – <b>${m.score[1]}</b> ${esc(name('black'))}<span class="chip black"></span>${crawford}`;
  }
  const n = state.presence ? state.presence.spectators : 0;
  $('watchers').textContent = `${n} watching`;
  const ol = $('moves');
  let turnNo = 0;   // only turns are numbered: the opening roll and notes are not
  const who = x => `<span class="chip ${x.color}" aria-hidden="true"></span><span class="sr-only">${esc(name(x.color))} (${x.color}): </span>`;
  const items = state.moveList.map(x => (x.color && !x.result ? `<li class="${x.color}" value="${++turnNo}">${who(x)}`
    : x.color ? `<li class="info">${who(x)}` : '<li class="info">') + `${x.dice ? `<span class="dice-text">${x.dice.join('')}</span> ` : ''}${esc(x.text)}</li>`);
  if (state.partial.length) items.push(`<li class="pending">${esc(S.formatSteps(S.flatPartial(state), state.you))}…</li>`);
  const html = items.join('');
  if (ol.dataset.html !== html) { ol.innerHTML = html; ol.dataset.html = html; ol.scrollTop = ol.scrollHeight; }
  if (!state.flagsStale) $('position-id').value = state.positionId || '';
  const over = state.match && state.match.status === 'finished';
  for (const id of ['export', 'end-export']) { $(id).hidden = !over; $(id).href = G.boot.exportUrl; }
  $('replay-link').hidden = state.status !== 'finished';
  $('replay-link').href = `/games/${state.game}/replay/`;
  $('verify-link').hidden = state.status !== 'finished';
  $('verify-link').href = `/games/${state.game}/verify/`;
}

export function renderChat(G) {
  const state = G.state;
  $('chat-title').textContent = state.you ? 'Players’ chat' : 'Spectators’ chat';
  const html = state.chat.map(c => `<li><b>${esc(c.name)}</b> ${esc(c.text)}</li>`).join('');
  const log = $('chat-log');
  if (log.dataset.html !== html) { log.innerHTML = html; log.dataset.html = html; log.scrollTop = log.scrollHeight; }
  $('chat-form').hidden = !G.boot.loggedIn;
  $('chat-login').hidden = G.boot.loggedIn;
}

let endShownFor = null;
/** The end of a match opens the dialog (once per game); any other end shows in the controls. */
export function renderDialog(G) {
  const state = G.state, g = state.gameEnd, name = namer(state);
  if (!g || !g.matchOver || endShownFor === `${state.game}`) return;
  endShownFor = `${state.game}`;
  const you = state.you;
  const aborted = g.matchReason === 'aborted' || (!g.matchWinner && g.reason === 'aborted');
  $('end-title').textContent = aborted ? 'Match aborted'
    : !g.matchWinner ? 'Match over'
    : (you ? (g.matchWinner === you ? 'You won the match!' : 'You lost the match') : `${name(g.matchWinner)} wins the match`);
  $('end-body').textContent = aborted
    ? `The match was aborted${state.abortReason ? ` (${state.abortReason})` : ''}: no winner, and no rating change.`
    : `${T.resultText(g, name)}${g.matchReason && !['points', 'aborted'].includes(g.matchReason) ? ` The match ended by ${T.REASONS[g.matchReason] || g.matchReason}.` : ''}`;
  $('end-score').textContent = T.scoreText(g, state.match, name);
  const rc = g.ratingChanges;
  $('end-ratings').hidden = !rc;
  if (rc) $('end-ratings').textContent = 'Ratings: ' + ['white', 'black'].filter(c => rc[c]).map(c =>
    `${name(c)} ${rc[c].rating.toFixed(1)} (${rc[c].change >= 0 ? '+' : ''}${rc[c].change.toFixed(1)})`).join(', ');
  $('end-verify').href = `/games/${state.game}/verify/`;
  $('rematch').hidden = !(g.matchOver && you) || aborted;
  $('end-lobby').hidden = !g.matchOver;
  $('end-export').hidden = !g.matchOver;
  $('end-close').textContent = g.matchOver ? 'Close' : 'Next game';
  $('end-dialog').hidden = false;
  $('end-dialog').dataset.matchOver = g.matchOver ? '1' : '0';
  (g.matchOver && you ? $('rematch') : $('end-close')).focus();
}

export function renderRematch(G) {
  const state = G.state, r = state.rematch;
  if (!r) return;
  if (r.offeredBy && r.offeredBy !== state.you && state.you) $('rematch-note').textContent = `${nameOf(state, r.offeredBy)} offers a rematch: press Rematch to accept.`;
  if (r.offeredBy && r.offeredBy !== state.you && $('end-dialog').hidden) { endShownFor = null; renderDialog(G); }
}

/** Every panel, after the board. */
export function renderPanels(G) {
  renderSeats(G); renderControls(G); renderPanel(G); renderChat(G); renderDialog(G); renderRematch(G);
}

// The game page's panels around the board: the seats, the status line and its buttons, the
// absent opponent's note, the match panel with the move list, the chat, the end-of-match
// dialog and the rematch note. Each reads the page ``G`` (game.mjs): ``state``, ``hold`` (the
// finished game kept on screen), ``sent`` (the version an action was sent at), ``offset``
// (the server's clock minus ours), ``moving`` (the board animates: the end-of-match dialog
// waits for the result to land on the board) and ``boot``.
import { $, esc, setHTML } from './lib/dom.mjs';
import { formatDate, gettext as _, interpolate, ngettext } from './lib/i18n.mjs';
import * as S from './state.mjs';
import * as T from './texts.mjs';
import { claimIn, tickClocks } from './game_clocks.mjs';
import { moveHint } from './play.mjs';

const nameOf = (state, c) => (state.match && state.match[c] ? state.match[c].name : T.colorName(c));
export const namer = state => c => nameOf(state, c);
const colorWord = c => (c === 'white' ? _('white') : c === 'black' ? _('black') : c);

export function renderSeats(G) {
  const state = G.state, me = state.you || 'white', opp = S.OTHER[me];
  const pips = S.pipCounts(S.currentPosition(state));
  for (const [seat, color] of [['top', opp], ['bottom', me]]) {
    const el = $(`seat-${seat}`);
    el.dataset.color = color;
    el.classList.toggle('on-roll', state.actor === color);
    const p = state.match && state.match[color];
    el.querySelector('[data-chip]').className = `chip ${color}`;
    el.querySelector('[data-name]').innerHTML = p ? `${esc(p.name)} <small>${Math.round(p.rating)}</small>${state.you === color ? ` <em>${esc(_('(you)'))}</em>` : ''}` : `<em>${esc(_('waiting…'))}</em>`;
    el.querySelector('[data-pips]').textContent = interpolate(ngettext('%(pips)s pip', '%(pips)s pips', pips[color]), { pips: pips[color] }, true);
    const pres = state.presence && state.presence[color];
    const dot = el.querySelector('[data-presence]');
    dot.className = `dot ${pres ? (pres.connected ? 'on' : 'off') : ''}`;
    dot.title = pres ? (pres.connected ? _('connected') : _('away')) : '';
    const away = pres && !pres.connected;
    dot.setAttribute('aria-label', color === 'white' ? (away ? _('White away') : _('White connected')) : (away ? _('Black away') : _('Black connected')));
  }
  tickClocks(state, G.offset);
}

// A resignation offered, by its level's name (state.mjs): whole sentences, for the translations.
const RESIGN_OFFER = () => ({ single: _('%(name)s offers to resign a single game.'), gammon: _('%(name)s offers to resign a gammon.'),
  backgammon: _('%(name)s offers to resign a backgammon.') });
const RESIGN_WAIT = () => ({ single: _('Waiting for an answer to the resignation (single game).'),
  gammon: _('Waiting for an answer to the resignation (gammon).'), backgammon: _('Waiting for an answer to the resignation (backgammon).') });

export function statusText(G) {
  const state = G.state, you = state.you, name = namer(state);
  if (state.status === 'finished' || state.phase === 'over') {
    const g = state.gameEnd;
    if (G.hold && g) {
      return interpolate(_('%(result)s %(score)s. Next game in %(seconds)s s.'), { result: T.resultText(state.result, name),
        score: T.scoreText(g, state.match, name), seconds: Math.max(0, Math.ceil((G.hold.until - Date.now()) / 1000)) }, true);
    }
    return T.resultText(state.result, name);
  }
  if (state.phase === 'opening') return _('Opening roll…');
  const actor = { name: name(state.actor) };
  switch (state.phase) {
    case 'move':
      return state.actor === you ? moveHint(state) : interpolate(_('%(name)s to move.'), actor, true);
    case 'turn': return state.actor === you ? _('Your turn: roll or double.') : interpolate(_('%(name)s to roll.'), actor, true);
    case 'cube_offered': return state.actor === you ? interpolate(_('Double to %(value)s: take or pass?'), { value: state.cube.offered || state.cube.value * 2 }, true)
      : interpolate(_('%(name)s is considering the double.'), actor, true);
    case 'resign_offered': {
      const offer = state.resignOffer, values = { name: name(offer.by), kind: offer.name };
      if (state.actor !== you) return interpolate(RESIGN_WAIT()[offer.name] || _('Waiting for an answer to the resignation (%(kind)s).'), values, true);
      return interpolate(RESIGN_OFFER()[offer.name] || _('%(name)s offers to resign a %(kind)s.'), values, true);
    }
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
  const nextMatch = document.getElementById('next-match');   // the next match waiting for you, when this one can be left
  if (nextMatch) nextMatch.hidden = !S.nextMatchShown(state, G.boot.turnsElsewhere);
  $('resign-box').hidden = !you || state.status === 'finished' || state.phase === 'resign_offered';
}

/** An absent opponent: a countdown, then the claim (the server waits GAMES_ABSENCE_GRACE). */
export function renderAway(G) {
  const state = G.state, left = claimIn(state, G.offset), note = $('away-note');
  note.hidden = left === null;
  if (left === null) return;
  const who = nameOf(state, S.OTHER[state.you]);
  if (state.clock && state.clock.correspondence) {
    note.hidden = left > 0;
    note.textContent = interpolate(_('%(name)s’s time ran out: you may claim the match, or wait (it is awarded to you at %(when)s).'),
      { name: who, when: formatDate(state.clock.correspondence.awardAt) }, true);
    $('controls').querySelector('[data-act=claim]').hidden = left > 0;
    return;
  }
  note.textContent = left > 0 ? interpolate(_('%(name)s left the table: if they are not back in %(time)s, you can claim the match.'), { name: who, time: T.fmtClock(left) }, true)
    : interpolate(_('%(name)s has been away too long: you may claim the match (or keep waiting).'), { name: who }, true);
  $('controls').querySelector('[data-act=claim]').hidden = left > 0;
}

export function renderPanel(G) {
  const state = G.state, m = state.match, name = namer(state);
  if (m) {
    const tc = m.timeControl && m.timeControl.kind === 'correspondence' ? ` · ${T.timeControlText(m.timeControl)}` : '';
    $('match-title').textContent = m.length ? interpolate(_('%(length)s-point match · game %(number)s'), { length: m.length, number: state.number }, true)
      : interpolate(_('Money session · game %(number)s'), { number: state.number }, true);
    $('match-title').textContent += tc;
    const crawford = m.crawfordGame ? ` <span class="badge strong" title="${esc(_('Crawford game: no doubling'))}">${esc(_('Crawford'))}</span>`
      : m.postCrawford ? ` <span class="badge muted">${esc(_('post-Crawford'))}</span>` : '';
    $('score').innerHTML = `<span class="chip white"></span>${esc(name('white'))} <b>${m.score[0]}</b> – <b>${m.score[1]}</b> ${esc(name('black'))}<span class="chip black"></span>${crawford}`;
  }
  const n = state.presence ? state.presence.spectators : 0;
  $('watchers').textContent = interpolate(_('%(count)s watching'), { count: n }, true);
  const ol = $('moves');
  let turnNo = 0;   // only turns are numbered: the opening roll and notes are not
  const who = x => `<span class="chip ${x.color}" aria-hidden="true"></span><span class="sr-only">${esc(interpolate(_('%(name)s (%(color)s): '), { name: name(x.color), color: colorWord(x.color) }, true))}</span>`;
  const items = state.moveList.map(x => (x.color && !x.result ? `<li class="${x.color}" value="${++turnNo}">${who(x)}`
    : x.color ? `<li class="info">${who(x)}` : '<li class="info">') + `${x.dice ? `<span class="dice-text">${x.dice.join('')}</span> ` : ''}`
    + (x.notation ? `<bdi class="notation">${esc(x.text)}</bdi>` : esc(x.text)) + '</li>');  // a play reads left to right in any page
  if (state.partial.length) items.push(`<li class="pending"><bdi class="notation">${esc(S.formatSteps(S.flatPartial(state), state.you))}…</bdi></li>`);
  const html = items.join('');
  if (setHTML(ol, html)) ol.scrollTop = ol.scrollHeight;
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
  $('chat-title').textContent = state.you ? _('Players’ chat') : _('Spectators’ chat');
  const html = state.chat.map(c => `<li><b>${esc(c.name)}</b> ${esc(c.text)}</li>`).join('');
  const log = $('chat-log');
  if (setHTML(log, html)) log.scrollTop = log.scrollHeight;
  $('chat-form').hidden = !G.boot.loggedIn;
  $('chat-login').hidden = G.boot.loggedIn;
}

let endShownFor = null;
/** The end of a match opens the dialog (once per game); any other end shows in the controls. */
export function renderDialog(G) {
  const state = G.state, g = state.gameEnd, name = namer(state);
  if (!g || !g.matchOver || endShownFor === `${state.game}` || G.moving) return;
  endShownFor = `${state.game}`;
  const you = state.you;
  const aborted = g.matchReason === 'aborted' || (!g.matchWinner && g.reason === 'aborted');
  const ended = g.matchWinner ? T.matchEndText(g, name, you) : null;
  $('end-title').textContent = aborted ? _('Match aborted') : !ended ? _('Match over') : ended.title;
  const endedBy = g.matchReason && !['points', 'aborted'].includes(g.matchReason) && !T.forfeitSentence(g.matchReason);
  $('end-body').textContent = aborted
    ? (state.abortReason ? interpolate(_('The match was aborted (%(reason)s): no winner, and no rating change.'), { reason: T.reasonWord(state.abortReason) }, true)
      : _('The match was aborted: no winner, and no rating change.'))
    : ended && !endedBy ? ended.body
    : endedBy ? interpolate(_('%(result)s The match ended by %(reason)s.'), { result: T.resultText(g, name), reason: T.reasonText(g.matchReason) }, true)
    : T.resultText(g, name);
  $('end-score').textContent = T.scoreText(g, state.match, name);
  const rc = g.ratingChanges;
  $('end-ratings').hidden = !rc;
  if (rc) {
    $('end-ratings').textContent = interpolate(_('Ratings: %(ratings)s'), { ratings: ['white', 'black'].filter(c => rc[c]).map(c =>
      `${name(c)} ${rc[c].rating.toFixed(1)} (${rc[c].change >= 0 ? '+' : ''}${rc[c].change.toFixed(1)})`).join(', ') }, true);
  }
  $('end-verify').href = `/games/${state.game}/verify/`;
  $('rematch').hidden = !(g.matchOver && you) || aborted;
  $('end-lobby').hidden = !g.matchOver;
  $('end-export').hidden = !g.matchOver;
  $('end-close').textContent = g.matchOver ? _('Close') : _('Next game');
  $('end-dialog').hidden = false;
  $('end-dialog').dataset.matchOver = g.matchOver ? '1' : '0';
  (g.matchOver && you ? $('rematch') : $('end-close')).focus();
}

export function renderRematch(G) {
  const state = G.state, r = state.rematch;
  if (!r) return;
  if (r.offeredBy && r.offeredBy !== state.you && state.you) $('rematch-note').textContent = interpolate(_('%(name)s offers a rematch: press Rematch to accept.'), { name: nameOf(state, r.offeredBy) }, true);
  if (r.offeredBy && r.offeredBy !== state.you && $('end-dialog').hidden) { endShownFor = null; renderDialog(G); }
}

/** Every panel, after the board. */
export function renderPanels(G) {
  renderSeats(G); renderControls(G); renderPanel(G); renderChat(G); renderDialog(G); renderRematch(G);
}

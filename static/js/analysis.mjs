// The analysis page: live progress while the job runs, then the board stepping through every
// decision with its verdict and alternatives (the play made and the best play drawn as arrows on
// the position before), each game's figures and equity graph, the statistics.
import { renderBoard } from './board.mjs';
import {
  LUCK_NOTE, PR_NOTE, alternatives, arrowsFor, biggestErrors, boardFor, buildSteps, colourWord, cubeLine, gameGraph,
  gameRows, keep, luckText, markOf, nextIndex, plyWord, ratingScale, ratingWord, resultText, shallowNote,
  signed, statRows, verdict, winSeries,
} from './analysis_core.mjs';
import { $, esc } from './lib/dom.mjs';
import { gettext as _, interpolate, ltrNumbers } from './lib/i18n.mjs';

const say = (format, values) => ltrNumbers(interpolate(format, values, true));
const root = $('analysis');
let data = null, steps = [], series = [], i = 0, alt = null, after = false, graphGame = -1;
const filter = { errorsOnly: false, mine: null };
const GW = 800, GH = 200, GL = 56, GT = 12, GB = 12;  // the graph's size and margins (left: the labels)

// -- progress --------------------------------------------------------------------------------
// A job that ended without a result, and what the page says (each may be queued again).
const ENDED = {
  failed: job => say(_('The analysis failed: %(error)s'), { error: job.error || _('unknown error') }),
  timed_out: job => (_('The analysis was stopped: it ran over its time limit.') + ' ' + (job.error || '')).trim(),
  cancelled: () => _('The analysis was cancelled.'),
};
const statusWord = st => ({ queued: _('queued'), running: _('running'), done: _('done'), failed: _('failed'),
  timed_out: _('timed out'), cancelled: _('cancelled') }[st] || st);
function showStatus() {
  const job = data.job || {};
  root.dataset.status = data.status;
  $('progress').hidden = !(data.status === 'queued' || data.status === 'running');
  const ended = ENDED[data.status];
  $('failed').hidden = !ended;
  if (data.status === 'queued' || data.status === 'running') {
    $('bar').value = job.progress || 0;
    $('progress-text').textContent = say(_('%(percent)s% · %(message)s'),
      { percent: Math.round((job.progress || 0) * 100), message: job.message || _('Waiting for a worker') });
    $('cancel-form').action = `/analysis/${data.id}/cancel/`;
  }
  $('cancel-form').hidden = !data.mayCancel;
  if (ended) {
    $('failed-text').textContent = ended(job);
    $('retry-form').action = `/analysis/${data.id}/retry/`;
    $('retry-form').hidden = !data.mayReanalyse && data.source === 'match';
  }
  $('depth-now').textContent = plyWord(data.depth);
  $('reanalyse').hidden = !data.mayReanalyse;
  const others = (data.analyses || []).filter(a => a.id !== data.id);
  $('other-depths').innerHTML = others.map(a => `<a href="/analysis/${a.id}/">${esc(say(_('%(depth)s (%(status)s)'),
    { depth: plyWord(a.depth), status: statusWord(a.status) }))}</a>`).join(' · ');
}

async function load() {
  const response = await fetch(root.dataset.url, { headers: { Accept: 'application/json' } });
  const body = await response.json();
  if (body.error) {
    $('notice').textContent = body.error.message;
    $('notice').hidden = false;
    root.dataset.status = 'none';
    if (body.error.code === 'analysis_not_found') $('reanalyse').hidden = false;  // the server checks who may ask
    return;
  }
  data = body;
  showStatus();
  if (data.status === 'queued' || data.status === 'running') { setTimeout(load, 1000); return; }
  if (data.status === 'done') start();
}

// -- the analysis ----------------------------------------------------------------------------
function start() {
  steps = buildSteps(data.analysis);
  series = winSeries(steps);
  filter.mine = data.viewer;
  $('filter-label').textContent = data.viewer ? _('Only my errors') : _('Only errors');
  $('viewer').hidden = false;
  renderStats();
  renderErrors();
  renderGames();
  const wanted = /^#decision-(\d+)$/.exec(location.hash);
  go(wanted ? Number(wanted[1]) - 1 : 0);
}

// The biggest errors of the match: the viewer's, or each player's for anyone else; each a link.
function renderErrors() {
  const names = data.players;
  const colors = data.viewer ? [data.viewer] : ['white', 'black'];
  $('errors').innerHTML = colors.map(c => {
    const list = biggestErrors(steps, c, 5);
    const who = data.viewer ? _('Your biggest errors')
      : say(_('Biggest errors of %(name)s (%(colour)s)'), { name: names[c].name, colour: colourWord(c) });
    return `<h3>${esc(who)}</h3>` + (list.length
      ? `<ol class="errors-list">${list.map(e => `<li><a href="#decision-${e.index + 1}" data-step="${e.index}"` +
        ` class="mark-${e.mark}">${esc(e.text)}</a></li>`).join('')}</ol>`
      : `<p class="hint">${esc(_('No error marked.'))}</p>`);
  }).join('');
}

function renderStats() {
  const s = data.analysis.stats, names = data.players;
  const rows = statRows(s.white).map((r, k) => [r[0], r[1], statRows(s.black)[k][1]]);
  $('stats').innerHTML = `<table class="data-table"><thead><tr><th scope="col"></th>` +
    `<th scope="col">${esc(playerHead('white'))}</th><th scope="col">${esc(playerHead('black'))}</th></tr></thead><tbody>` +
    rows.map(r => `<tr><th scope="row">${esc(r[0])}</th><td>${esc(r[1])}</td><td>${esc(r[2])}</td></tr>`).join('') +
    `</tbody></table>`;
  const held = [s.white.overall.rating, s.black.overall.rating];
  $('luck-note').textContent = LUCK_NOTE;
  $('pr-note').textContent = PR_NOTE;
  $('rating-scale').innerHTML = ratingScale().map(r => `<li${held.includes(r.word) ? ' class="held"' : ''}>` +
    `${esc(r.line)}${held.includes(r.word) ? ` ← ${esc(['white', 'black'].filter((c, k) => held[k] === r.word)
      .map(c => names[c].name).join(', '))}` : ''}</li>`).join('');
  $('stats').dataset.ratings = held.map(ratingWord).join(',');
}

const playerHead = c => say(_('%(name)s (%(colour)s)'), { name: data.players[c].name, colour: colourWord(c) });

// Each game: the score it started at, its result, each player's error rate and luck; a row jumps
// to the game's first decision.
function renderGames() {
  const rows = gameRows(data.analysis);
  const cell = st => (st.errorRate === null || st.errorRate === undefined ? '—'
    : `${esc(String(st.errorRate))} · <span class="hint">${esc(signed(st.luck))}</span>`);
  $('games').innerHTML = `<table class="data-table games-table"><thead><tr><th scope="col">${esc(_('Game'))}</th>` +
    `<th scope="col">${esc(_('Result'))}</th><th scope="col">${esc(playerHead('white'))}</th>` +
    `<th scope="col">${esc(playerHead('black'))}</th></tr></thead><tbody>` +
    rows.map(r => `<tr data-game="${r.game}"><th scope="row"><a href="#decision-${r.first + 1}" data-step="${r.first}">` +
      `${esc(say(_('Game %(number)s'), { number: r.number }))}</a>` +
      (r.length && r.score ? `<span class="hint game-score">${esc(r.score.join('–'))}</span>` : '') + '</th>' +
      `<td>${esc(resultText(r.result))}</td><td>${cell(r.white)}</td><td>${cell(r.black)}</td></tr>`).join('') +
    '</tbody></table>';
}

// The equity graph of the game on the board: White's chance to win after each decision, the
// errors marked (the larger, the worse), each decision a place to click.
function drawGraph(game) {
  graphGame = game;
  const points = gameGraph(steps, series, game);
  const n = Math.max(1, points.length), w = (GW - GL) / n;
  const x = k => GL + (k + 0.5) * w, y = v => GT + (1 - v) * (GH - GT - GB);
  let out = `<rect class="graph-bg" x="${GL}" y="0" width="${GW - GL}" height="${GH}"/>`;
  for (const v of [0, 0.5, 1]) {
    out += `<line class="${v === 0.5 ? 'graph-mid' : 'graph-edge'}" x1="${GL}" x2="${GW}" y1="${y(v)}" y2="${y(v)}"/>` +
      `<text class="graph-label" x="${GL - 6}" y="${y(v) + 7}" text-anchor="end">${Math.round(v * 100)}%</text>`;
  }
  out += `<polyline class="graph-line" fill="none" points="${points.map((p, k) => `${x(k).toFixed(1)},${y(p.win).toFixed(1)}`).join(' ')}"/>`;
  out += `<line id="graph-now" class="graph-now" x1="0" x2="0" y1="0" y2="${GH}"/>`;
  points.forEach((p, k) => {
    out += `<rect class="graph-hit" data-step="${p.index}" x="${(GL + k * w).toFixed(2)}" y="0" width="${w.toFixed(2)}" height="${GH}" fill="transparent"><title>${esc(verdict(steps[p.index]))}</title></rect>`;
  });
  points.forEach((p, k) => {
    if (p.mark) {
      out += `<circle class="graph-err ${p.mark} by-${p.player}" data-step="${p.index}" cx="${x(k).toFixed(1)}" cy="${y(p.win).toFixed(1)}"` +
        ` r="${{ doubtful: 5, bad: 7, very_bad: 9 }[p.mark]}"><title>${esc(verdict(steps[p.index]))}</title></circle>`;
    }
  });
  $('graph').innerHTML = out;
  $('graph-title').textContent = say(_('Game %(number)s: White’s chance to win after each decision'),
    { number: (data.analysis.games[game].game || {}).number || game + 1 });
  document.querySelectorAll('#games tr[data-game]').forEach(tr => {
    const current = Number(tr.dataset.game) === game;
    tr.classList.toggle('current', current);
    if (current) tr.setAttribute('aria-current', 'true'); else tr.removeAttribute('aria-current');
  });
}

// The play made and the best play as arrows on the board before the play, and which of them the legend names.
function drawArrows(s, view) {
  const arrows = arrowsFor(s.d, view);
  const kinds = new Set(arrows.map(a => a.kind));
  for (const k of ['played', 'best', 'both']) $(`key-${k}`).hidden = !kinds.has(k);
  $('arrow-legend').hidden = !arrows.length;
  if (!arrows.length) return '';
  const head = k => `<marker id="head-${k}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" ` +
    `orient="auto-start-reverse" markerUnits="strokeWidth"><path class="arrow-head ${k}" d="M0,0 L10,5 L0,10 z"/></marker>`;
  // the best play under the play made; each path twice: a halo that keeps it readable on any board, then the colour
  const order = [...arrows.filter(a => a.kind !== 'played'), ...arrows.filter(a => a.kind === 'played')];
  return `<g class="arrows" aria-hidden="true"><defs>${head('played')}${head('best')}${head('both')}</defs>` +
    order.map(a => `<path class="arrow-halo" d="${a.d}"/>`).join('') +
    order.map(a => `<path class="arrow ${a.kind}" d="${a.d}" marker-end="url(#head-${a.kind})"/>`).join('') +
    // the counts beside the heads: the best play's on the left, the play made's on the right (both may end on one point)
    order.filter(a => a.n > 1).map(a => `<text class="arrow-count ${a.kind}" x="${(a.end.x + (a.kind === 'best' ? -24 : 24)).toFixed(1)}" ` +
      `y="${(a.end.y + 8).toFixed(1)}" text-anchor="${a.kind === 'best' ? 'end' : 'start'}">×${a.n}</text>`).join('') + '</g>';
}

function show() {
  const s = steps[i];
  if (!s) { $('what').textContent = _('No decision to show.'); return; }
  const view = boardFor(s, alt, after);
  const game = data.analysis.games[s.game];
  const cubeOn = !!(game.game.rules && game.game.rules.cube) && game.game.matchLength !== 1 && !game.game.crawfordGame;
  const you = data.viewer || 'white';
  const before = !view.lastTurn;
  $('board').innerHTML = renderBoard({ pos: view.pos, you, dice: view.dice,
    diceColor: s.d.player, cube: { value: s.d.cubeValue, owner: s.d.cubeOwner, enabled: cubeOn }, lastTurn: view.lastTurn })
    + (before ? drawArrows(s, { you, flipped: false }) : '');
  if (!before) $('arrow-legend').hidden = true;
  $('what').textContent = say(_('Game %(game)s · decision %(decision)s of %(count)s · %(verdict)s'),
    { game: s.game + 1, decision: i + 1, count: steps.length, verdict: verdict(s) });
  $('cube-line').textContent = cubeLine(s.d) || '';
  $('luck-line').textContent = s.d.luck ? say(_('Luck of the roll: %(luck)s'), { luck: luckText(s.d.luck) }) : '';
  const canToggle = s.d.kind === 'move' && !!s.d.play;
  const showsAfter = canToggle && (after || !!alt);
  $('board-toggle').hidden = !canToggle;
  $('board-toggle').textContent = showsAfter ? _('Show the position before') : _('Show the position after');
  $('board-toggle').setAttribute('aria-pressed', String(showsAfter));
  $('board-when').textContent = !canToggle ? _('Before the decision') : !showsAfter ? _('Before the play')
    : alt ? say(_('After %(play)s (not played)'), { play: alt.notation }) : _('After the play made');
  root.dataset.view = showsAfter ? 'after' : 'before';
  const score = game.game.matchLength
    ? say(_('Score %(score)s of %(length)s'), { score: game.game.score.join('–'), length: game.game.matchLength }) : _('Money session');
  $('score-line').textContent = game.game.crawfordGame ? `${score} · ${_('Crawford game')}` : score;
  const alts = alternatives(s.d);
  const shownOf = a => (alt ? alt.rank === a.rank : showsAfter && a.played);
  $('alternatives').innerHTML = alts.map((a, k) => `<li><button type="button" class="alt${a.played ? ' played' : ''}` +
    `${shownOf(a) ? ' shown' : ''}${!a.played && k === 0 ? ' best' : ''}" data-alt="${k}" aria-pressed="${shownOf(a)}">` +
    `<span class="alt-play">${esc(a.text)}${a.played ? ' ' + esc(_('(played)')) : ''}</span> <span class="alt-eq">${esc(a.eq)}</span> ` +
    `<span class="alt-loss">${esc(a.lossText)}</span>${a.plyText ? ` <span class="alt-ply">${esc(a.plyText)}</span>` : ''}` +
    `</button></li>`).join('');
  $('alt-title').hidden = !alts.length;
  $('alt-note').textContent = shallowNote(alts);
  $('alt-note').hidden = !$('alt-note').textContent;
  if (graphGame !== s.game) drawGraph(s.game);
  const points = gameGraph(steps, series, s.game);
  const at = points.findIndex(p => p.index === i), w = (GW - GL) / Math.max(1, points.length);
  const now = $('graph-now');
  if (now) { const x = (GL + (at + 0.5) * w).toFixed(1); now.setAttribute('x1', x); now.setAttribute('x2', x); }
  root.dataset.step = i;
  root.dataset.game = s.game;
  root.dataset.mark = markOf(s.d) || '';
  root.dataset.player = s.d.player;
  $('prev').disabled = nextIndex(steps, i, -1, filter) === i;
  $('next').disabled = nextIndex(steps, i, 1, filter) === i;
}

function go(k) {
  if (!steps.length) return;
  i = Math.max(0, Math.min(steps.length - 1, k));
  alt = null;
  after = false;
  show();
}
const step = dir => go(nextIndex(steps, i, dir, filter));

$('first').onclick = () => go(keep(steps[0] || {}, filter) ? 0 : nextIndex(steps, -1, 1, filter));
$('prev').onclick = () => step(-1);
$('next').onclick = () => step(1);
$('last').onclick = () => go(keep(steps[steps.length - 1] || {}, filter) ? steps.length - 1 : nextIndex(steps, steps.length, -1, filter));
$('errors-only').onchange = e => {
  filter.errorsOnly = e.target.checked;
  if (filter.errorsOnly && steps.length && !keep(steps[i], filter)) {
    const j = nextIndex(steps, i, 1, filter);
    go(j !== i ? j : nextIndex(steps, i, -1, filter));
  } else show();
};
$('alternatives').onclick = e => {
  const b = e.target.closest('button[data-alt]');
  if (!b) return;
  const a = alternatives(steps[i].d)[Number(b.dataset.alt)];
  alt = a.played ? null : a;
  after = true;  // a play chosen in the list is shown played
  show();
  const again = [...document.querySelectorAll('#alternatives button')].find(x => x.dataset.alt === b.dataset.alt);
  if (again) again.focus();
};
$('board-toggle').onclick = () => {
  const showsAfter = after || !!alt;
  after = !showsAfter;
  if (showsAfter) alt = null;
  show();
};
// a link to a decision (the biggest errors, a game's first decision) jumps there
const jump = e => {
  const a = e.target.closest('a[data-step]');
  if (!a) return;
  e.preventDefault();
  history.replaceState(null, '', a.getAttribute('href'));
  go(Number(a.dataset.step));
  $('what').scrollIntoView({ block: 'nearest' });
};
$('errors').onclick = jump;
$('games').onclick = jump;
window.addEventListener('hashchange', () => {
  const wanted = /^#decision-(\d+)$/.exec(location.hash);
  if (wanted && steps.length) go(Number(wanted[1]) - 1);
});
$('graph').onclick = e => {
  const r = e.target.closest('[data-step]');
  if (r) go(Number(r.dataset.step));
};
document.addEventListener('keydown', e => {
  if (!steps.length || e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT' && e.target.type !== 'checkbox') return;
  if (e.key === 'ArrowLeft') { step(-1); e.preventDefault(); }
  else if (e.key === 'ArrowRight') { step(1); e.preventDefault(); }
  else if (e.key === 'Home') { $('first').click(); e.preventDefault(); }
  else if (e.key === 'End') { $('last').click(); e.preventDefault(); }
});
load();

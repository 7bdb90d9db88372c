// The analysis page: live progress while the job runs, then the board stepping through every
// decision with its verdict and alternatives, the win-chance graph, the statistics.
import { renderBoard } from './board.mjs';
import {
  LUCK_NOTE, PR_NOTE, alternatives, biggestErrors, boardFor, buildSteps, cubeLine, keep, luckText, markOf, nextIndex,
  ratingScale, ratingWord, shallowNote, statRows, verdict, winSeries,
} from './analysis_core.mjs';
import { $, esc } from './lib/dom.mjs';

const root = $('analysis');
let data = null, steps = [], series = [], i = 0, alt = null, after = false;
const filter = { errorsOnly: false, mine: null };
const GW = 800, GH = 160;

// -- progress --------------------------------------------------------------------------------
// A job that ended without a result, and what the page says (each may be queued again).
const ENDED = {
  failed: job => `The analysis failed: ${job.error || 'unknown error'}`,
  timed_out: job => `The analysis was stopped: it ran over its time limit. ${job.error || ''}`.trim(),
  cancelled: () => 'The analysis was cancelled.',
};
function showStatus() {
  const job = data.job || {};
  root.dataset.status = data.status;
  $('progress').hidden = !(data.status === 'queued' || data.status === 'running');
  const ended = ENDED[data.status];
  $('failed').hidden = !ended;
  if (data.status === 'queued' || data.status === 'running') {
    $('bar').value = job.progress || 0;
    $('progress-text').textContent = `${Math.round((job.progress || 0) * 100)}% · ${job.message || 'Waiting for a worker'}`;
    $('cancel-form').action = `/analysis/${data.id}/cancel/`;
  }
  $('cancel-form').hidden = !data.mayCancel;
  if (ended) {
    $('failed-text').textContent = ended(job);
    $('retry-form').action = `/analysis/${data.id}/retry/`;
    $('retry-form').hidden = !data.mayReanalyse && data.source === 'match';
  }
  $('depth-now').textContent = `${data.depth}-ply`;
  $('reanalyse').hidden = !data.mayReanalyse;
  const others = (data.analyses || []).filter(a => a.id !== data.id);
  $('other-depths').innerHTML = others.map(a => `<a href="/analysis/${a.id}/">${a.depth}-ply (${esc(a.status)})</a>`).join(' · ');
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
  $('filter-label').textContent = data.viewer ? 'Only my errors' : 'Only errors';
  $('viewer').hidden = false;
  renderStats();
  renderErrors();
  drawGraph();
  const wanted = /^#decision-(\d+)$/.exec(location.hash);
  go(wanted ? Number(wanted[1]) - 1 : 0);
}

// The biggest errors of the match: the viewer's, or each player's for anyone else; each a link.
function renderErrors() {
  const names = data.players;
  const colors = data.viewer ? [data.viewer] : ['white', 'black'];
  $('errors').innerHTML = colors.map(c => {
    const list = biggestErrors(steps, c, 5);
    const who = data.viewer ? 'Your' : `${esc(names[c].name)}’s (${c === 'white' ? 'White' : 'Black'})`;
    return `<h3>${who} biggest errors</h3>` + (list.length
      ? `<ol class="errors-list">${list.map(e => `<li><a href="#decision-${e.index + 1}" data-step="${e.index}"` +
        ` class="mark-${e.mark}">${esc(e.text)}</a></li>`).join('')}</ol>`
      : '<p class="hint">No error marked.</p>');
  }).join('');
}

function renderStats() {
  const s = data.analysis.stats, names = data.players;
  const rows = statRows(s.white).map((r, k) => [r[0], r[1], statRows(s.black)[k][1]]);
  $('stats').innerHTML = `<table class="data-table"><thead><tr><th scope="col"></th>` +
    `<th scope="col">${esc(names.white.name)} (White)</th><th scope="col">${esc(names.black.name)} (Black)</th></tr></thead><tbody>` +
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

function drawGraph() {
  const n = Math.max(1, steps.length), w = GW / n;
  const x = k => (k + 0.5) * w, y = v => GH - 8 - v * (GH - 16);
  let out = `<rect class="graph-bg" x="0" y="0" width="${GW}" height="${GH}"/>`;
  out += `<line class="graph-mid" x1="0" x2="${GW}" y1="${y(0.5)}" y2="${y(0.5)}"/>`;
  steps.forEach((s, k) => {
    if (k && s.game !== steps[k - 1].game) out += `<line class="graph-game" x1="${k * w}" x2="${k * w}" y1="0" y2="${GH}"/>`;
  });
  out += `<polyline class="graph-line" fill="none" points="${series.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`;
  steps.forEach((s, k) => {
    const m = markOf(s.d);
    if (m) out += `<circle class="graph-err ${m}" cx="${x(k).toFixed(1)}" cy="${y(series[k]).toFixed(1)}" r="${m === 'very_bad' ? 5 : 3.5}"/>`;
  });
  out += `<line id="graph-now" class="graph-now" x1="0" x2="0" y1="0" y2="${GH}"/>`;
  steps.forEach((s, k) => {
    out += `<rect class="graph-hit" data-step="${k}" x="${(k * w).toFixed(2)}" y="0" width="${w.toFixed(2)}" height="${GH}" fill="transparent"><title>${esc(verdict(s))}</title></rect>`;
  });
  $('graph').innerHTML = out;
}

function show() {
  const s = steps[i];
  if (!s) { $('what').textContent = 'No decision to show.'; return; }
  const view = boardFor(s, alt, after);
  const game = data.analysis.games[s.game];
  const cubeOn = !!(game.game.rules && game.game.rules.cube) && game.game.matchLength !== 1 && !game.game.crawfordGame;
  $('board').innerHTML = renderBoard({ pos: view.pos, you: data.viewer || 'white', dice: view.dice,
    diceColor: s.d.player, cube: { value: s.d.cubeValue, owner: s.d.cubeOwner, enabled: cubeOn }, lastTurn: view.lastTurn });
  $('what').textContent = `Game ${s.game + 1} · decision ${i + 1} of ${steps.length} · ${verdict(s)}`;
  $('cube-line').textContent = cubeLine(s.d) || '';
  $('luck-line').textContent = s.d.luck ? `Luck of the roll: ${luckText(s.d.luck)}` : '';
  const canToggle = s.d.kind === 'move' && !!s.d.play;
  const showsAfter = canToggle && (after || !!alt);
  $('board-toggle').hidden = !canToggle;
  $('board-toggle').textContent = showsAfter ? 'Show the position before' : 'Show the position after';
  $('board-toggle').setAttribute('aria-pressed', String(showsAfter));
  $('board-when').textContent = !canToggle ? 'Before the decision' : !showsAfter ? 'Before the play'
    : alt ? `After ${alt.notation} (not played)` : 'After the play made';
  root.dataset.view = showsAfter ? 'after' : 'before';
  $('score-line').textContent = game.game.matchLength ? `Score ${game.game.score.join('–')} of ${game.game.matchLength}` +
    (game.game.crawfordGame ? ' · Crawford game' : '') : 'Money session';
  const alts = alternatives(s.d);
  const shownOf = a => (alt ? alt.rank === a.rank : showsAfter && a.played);
  $('alternatives').innerHTML = alts.map((a, k) => `<li><button type="button" class="alt${a.played ? ' played' : ''}` +
    `${shownOf(a) ? ' shown' : ''}" data-alt="${k}" aria-pressed="${shownOf(a)}">` +
    `<span class="alt-play">${esc(a.text)}${a.played ? ' (played)' : ''}</span> <span class="alt-eq">${esc(a.eq)}</span> ` +
    `<span class="alt-loss">${esc(a.lossText)}</span>${a.plyText ? ` <span class="alt-ply">${esc(a.plyText)}</span>` : ''}` +
    `</button></li>`).join('');
  $('alt-title').hidden = !alts.length;
  $('alt-note').textContent = shallowNote(alts);
  $('alt-note').hidden = !$('alt-note').textContent;
  const n = Math.max(1, steps.length);
  const now = $('graph-now');
  if (now) { now.setAttribute('x1', ((i + 0.5) * GW / n).toFixed(1)); now.setAttribute('x2', ((i + 0.5) * GW / n).toFixed(1)); }
  root.dataset.step = i;
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
  const again = document.querySelector(`#alternatives button[data-alt="${b.dataset.alt}"]`);
  if (again) again.focus();
};
$('board-toggle').onclick = () => {
  const showsAfter = after || !!alt;
  after = !showsAfter;
  if (showsAfter) alt = null;
  show();
};
$('errors').onclick = e => {
  const a = e.target.closest('a[data-step]');
  if (!a) return;
  e.preventDefault();
  history.replaceState(null, '', a.getAttribute('href'));
  go(Number(a.dataset.step));
  $('what').scrollIntoView({ block: 'nearest' });
};
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

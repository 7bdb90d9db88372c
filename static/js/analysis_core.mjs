// The analysis page's pure part (no DOM): steps over a match's decisions, verdicts, the
// win-chance series of the graph and the "only my errors" filter. Tested with node --test.
import { applySteps } from './state.mjs';
import { cap } from './lib/dom.mjs';

const MARKS = { doubtful: 'Doubtful', bad: 'Bad', very_bad: 'Very bad' };
const other = c => (c === 'white' ? 'black' : 'white');
const fmt = (x, d = 3) => (x === null || x === undefined ? '—' : (x >= 0 ? '+' : '') + Number(x).toFixed(d));

/** Every decision of the match, in order: {game, index, d} (index: position in the match). */
export function buildSteps(result) {
  const steps = [];
  (result.games || []).forEach((g, game) => {
    for (const d of g.decisions) steps.push({ game, index: steps.length, d });
  });
  return steps;
}

/** The worst mark of a decision (its play's and its cube decision's), or null. */
export function markOf(d) {
  const order = [null, 'doubtful', 'bad', 'very_bad'];
  const marks = [d.mark, d.play && d.play.mark, d.cube && d.kind === 'move' ? d.cube.mark : null];
  return marks.reduce((worst, m) => (order.indexOf(m || null) > order.indexOf(worst) ? m : worst), null);
}

/** The equity lost at a decision (play and cube together). */
export function lossOf(d) {
  if (d.kind !== 'move') return d.loss || 0;
  return ((d.play && !d.play.forced && d.play.loss) || 0) + ((d.cube && d.cube.loss) || 0);
}

/** Whether step ``s`` passes the filter: ``mine`` (a colour or null) and errors only. */
export function keep(s, { errorsOnly = false, mine = null } = {}) {
  if (!errorsOnly) return true;
  if (!markOf(s.d)) return false;
  return !mine || s.d.player === mine;
}

/** The next step index from ``i`` in direction ``dir`` (+1/-1) passing the filter, or ``i``. */
export function nextIndex(steps, i, dir, filter) {
  for (let j = i + dir; j >= 0 && j < steps.length; j += dir) if (keep(steps[j], filter)) return j;
  return i;
}

/** White's chance to win after each step (0..1), or null where the analysis gives none. */
export function whiteWinChance(d) {
  if (d.kind === 'move' && d.play && d.play.alternatives) {
    const played = d.play.alternatives.find(a => a.played);
    if (played) return d.player === 'white' ? played.probs.win : 1 - played.probs.win;
  }
  if (d.cube && d.cube.probs) {
    // a cube decision's chances are those of the player on roll (the doubler)
    const roller = d.kind === 'move' || d.kind === 'double' ? d.player : other(d.player);
    return roller === 'white' ? d.cube.probs.win : 1 - d.cube.probs.win;
  }
  return null;
}

/** The graph's series: one value per step, carried forward where a step has none. */
export function winSeries(steps) {
  let last = 0.5;
  return steps.map(s => {
    const w = whiteWinChance(s.d);
    if (w !== null) last = w;
    return last;
  });
}

/** The position to draw for step ``s`` with alternative ``alt`` (default: the play made):
 * {pos, lastTurn, dice}. Cube decisions show the position before the roll. */
export function boardFor(s, alt = null) {
  const d = s.d;
  if (d.kind !== 'move' || !d.play) return { pos: d.position, lastTurn: null, dice: d.dice || null };
  const moves = alt ? alt.moves : d.play.moves;
  const { pos } = applySteps(d.position, d.player, moves);
  return { pos, lastTurn: { color: d.player, moves }, dice: d.dice };
}

function cubeWords(action) {
  return { no_double: 'No double', double_take: 'Double, take', double_pass: 'Double, pass',
    take: 'Take', drop: 'Pass', pass: 'Pass', beaver: 'Beaver' }[action] || action;
}

/** The headline of a step: who did what, and how good it was. */
export function verdict(s) {
  const d = s.d, who = cap(d.player);
  const mark = markOf(d);
  const badge = mark ? `${MARKS[mark]} (−${lossOf(d).toFixed(3)})` : 'No error';
  if (d.kind === 'move') {
    const dice = d.dice ? d.dice.join('') + ': ' : '';
    if (!d.play) return `${who} ${dice}no play (the game ended)`;
    if (d.play.forced) return `${who} ${dice}${d.play.notation || 'cannot move'} · forced`;
    const rank = d.play.rank === 1 ? 'best play' : `rank ${d.play.rank} of ${d.play.candidates}`;
    return `${who} ${dice}${d.play.notation} · ${rank} · ${badge}`;
  }
  const cube = d.cube || {};
  const action = d.kind === 'double' ? 'doubles' : d.kind === 'drop' ? 'passes' : d.kind === 'beaver' ? 'beavers' : 'takes';
  const right = d.kind === 'double' ? cubeWords(cube.best) : cubeWords(cube.takeRight);
  return `${who} ${action} · right: ${right} · ${badge}`;
}

/** The cube line of a step (the cube decision before a roll, or the double's numbers). */
export function cubeLine(d) {
  const c = d.cube;
  if (!c) return null;
  const own = d.kind === 'move' ? ` · ${cubeWords('no_double')} was ${c.mark ? MARKS[c.mark].toLowerCase() : 'right'}` +
    (c.loss ? ` (−${c.loss.toFixed(3)})` : '') : '';
  return `Cube: no double ${fmt(c.nd)}, double/take ${fmt(c.dt)}, double/pass ${fmt(c.dp)} · best: ${cubeWords(c.best)}${own}`;
}

/** The alternatives of a checker play, best first: {rank, notation, equity, loss, played, win}. */
export function alternatives(d) {
  if (d.kind !== 'move' || !d.play || !d.play.alternatives) return [];
  return d.play.alternatives.map(a => ({ ...a, text: `${a.rank}. ${a.notation}`, eq: fmt(a.equity),
    lossText: a.loss ? `−${a.loss.toFixed(3)}` : '', win: a.probs ? a.probs.win : null }));
}

/** Statistics rows of one player's stats object (the analysis JSON's ``stats``). */
export function statRows(stats) {
  const n = x => (x === null || x === undefined ? '—' : String(x));
  return [
    ['PR', n(stats.overall.pr)],
    ['Error rate (millipoints per decision)', n(stats.overall.errorRate)],
    ['Rating', n(stats.overall.rating)],
    ['Checker error rate', n(stats.checker.errorRate)],
    ['Checker errors (doubtful/bad/very bad)',
      `${stats.checker.marks.doubtful}/${stats.checker.marks.bad}/${stats.checker.marks.very_bad}`],
    ['Cube error rate', n(stats.cube.errorRate)],
    ['Cube errors (doubtful/bad/very bad)', `${stats.cube.marks.doubtful}/${stats.cube.marks.bad}/${stats.cube.marks.very_bad}`],
    ['Luck (total, per roll)', `${fmt(stats.luck.total)} · ${n(stats.luck.perRoll)}`],
    ['Decisions (unforced + cube)', n(stats.overall.decisions)],
  ];
}

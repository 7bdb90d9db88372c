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

/** The position to draw for step ``s``: {pos, lastTurn, dice}. By default the position
 * BEFORE the decision (what the verdict and the list of plays are about), with the dice;
 * ``after``: the position after the play made, or after alternative ``alt``. Cube
 * decisions always show the position before the roll. */
export function boardFor(s, alt = null, after = false) {
  const d = s.d;
  if (d.kind !== 'move' || !d.play || (!after && !alt)) return { pos: d.position, lastTurn: null, dice: d.dice || null };
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
    const made = alternatives(d).find(a => a.played);
    const r = made ? made.rank : d.play.rank;
    const rank = r === 1 ? 'best play' : `rank ${r} of ${d.play.candidates}`;
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

/** The alternatives of a checker play as listed: the best at the deepest look first (every
 * loss is measured from it), then the others by equity, the play made in its place (older
 * analyses listed deeper plies first: they are re-sorted and renumbered here). Each:
 * {rank, notation, equity, loss, played, win, ply, shallow (looked at less deeply), text}. */
export function alternatives(d) {
  if (d.kind !== 'move' || !d.play || !d.play.alternatives || !d.play.alternatives.length) return [];
  const list = d.play.alternatives;
  const deepest = Math.max(...list.map(a => a.ply || 0));
  const best = list.reduce((b, a) => ((a.ply || 0) === deepest && (b === null || a.equity > b.equity) ? a : b), null);
  const sorted = [best, ...list.filter(a => a !== best).sort((a, b) => b.equity - a.equity)];
  const inOrder = sorted.every((a, k) => !k || a.rank > sorted[k - 1].rank);
  return sorted.map((a, k) => {
    const rank = inOrder ? a.rank : k + 1;
    const shallow = (a.ply || 0) < deepest;
    return { ...a, rank, shallow, text: `${rank}. ${a.notation}`, eq: fmt(a.equity),
      plyText: shallow ? `${a.ply || 0}-ply` : '', lossText: a.loss ? `−${a.loss.toFixed(3)}` : '',
      win: a.probs ? a.probs.win : null };
  });
}

/** The note under the list of plays when some were looked at less deeply than the best. */
export function shallowNote(alts) {
  const shallow = alts.filter(a => a.shallow);
  if (!shallow.length) return '';
  const deepest = Math.max(...alts.map(a => a.ply || 0));
  return `Plays marked ${[...new Set(shallow.map(a => a.plyText))].join(' or ')} were not looked at ` +
    `${deepest}-ply deep (the filter left them out): their equity is a quicker estimate.`;
}

/** Luck in EMG: "+0.123 EMG (lucky)". */
export function luckText(luck) {
  if (!luck) return '';
  return `${fmt(luck.value)} EMG${luck.mark ? ` (${luck.mark.replace('_', ' ')})` : ''}`;
}

/** What luck means, in one line (the unit of every luck figure on the page). */
export const LUCK_NOTE = 'Luck: what a roll gave compared with the average of all 36 rolls, in EMG ' +
  '(equity in money-game units: 1.000 is a single game at a cube of 1); positive is lucky.';

/** gnubg's rating scale: each word with the error rate below which it applies (millipoints
 * of EMG per decision) and the same bound as PR (half the error rate). The site's ratings
 * come from the error rate (games/analysis/marks.py RATINGS: a test keeps them equal). */
export const RATING_SCALE = [
  ['supernatural', 2], ['world_class', 5], ['expert', 8], ['advanced', 12], ['intermediate', 18],
  ['casual_player', 26], ['beginner', 35], ['awful', null],
];

/** "casual_player" -> "Casual player". */
export function ratingWord(r) {
  return r ? cap(String(r).replace('_', ' ')) : '—';
}

/** The scale as lines: "Supernatural: PR below 1.0 (error rate below 2.0)". */
export function ratingScale() {
  let last = null;
  return RATING_SCALE.map(([word, limit]) => {
    const line = limit === null
      ? `${ratingWord(word)}: PR ${(last / 2).toFixed(1)} or more (error rate ${last.toFixed(1)} or more)`
      : `${ratingWord(word)}: PR below ${(limit / 2).toFixed(1)} (error rate below ${limit.toFixed(1)})`;
    last = limit;
    return { word, line };
  });
}

/** What PR and the rating mean, in one line. */
export const PR_NOTE = 'PR (performance rating): 500 × the equity (EMG) given up per decision that counts ' +
  '(unforced checker plays, close or actual cube decisions); lower is better, 0 is perfect. The error rate is ' +
  'the same in millipoints of EMG (mEMG) per decision (twice the PR). The rating word comes from it, on GNU Backgammon’s scale:';

/** A player's biggest errors of the match, worst first: [{index, game, loss, mark, text}]
 * (``player`` null: both players'). */
export function biggestErrors(steps, player = null, n = 5) {
  return steps.filter(s => markOf(s.d) && (!player || s.d.player === player))
    .map(s => ({ s, loss: lossOf(s.d) }))
    .sort((a, b) => b.loss - a.loss || a.s.index - b.s.index)
    .slice(0, n)
    .map(({ s, loss }) => {
      const d = s.d, mark = markOf(d);
      const what = d.kind === 'move'
        ? `${d.dice ? d.dice.join('') + ': ' : ''}${d.play && d.play.loss ? d.play.notation : 'no double'}`
        : { double: 'double', take: 'take', drop: 'pass', beaver: 'beaver' }[d.kind] || d.kind;
      return { index: s.index, game: s.game, loss, mark, player: d.player,
        text: `Game ${s.game + 1}, decision ${s.index + 1}: ${cap(d.player)} ${what} · ${MARKS[mark]} (−${loss.toFixed(3)})` };
    });
}

/** Statistics rows of one player's stats object (the analysis JSON's ``stats``). */
export function statRows(stats) {
  const n = x => (x === null || x === undefined ? '—' : String(x));
  return [
    ['PR', n(stats.overall.pr)],
    ['Error rate (mEMG per decision)', n(stats.overall.errorRate)],
    ['Rating', ratingWord(stats.overall.rating)],
    ['Checker error rate', n(stats.checker.errorRate)],
    ['Checker errors (doubtful/bad/very bad)',
      `${stats.checker.marks.doubtful}/${stats.checker.marks.bad}/${stats.checker.marks.very_bad}`],
    ['Cube error rate', n(stats.cube.errorRate)],
    ['Cube errors (doubtful/bad/very bad)', `${stats.cube.marks.doubtful}/${stats.cube.marks.bad}/${stats.cube.marks.very_bad}`],
    ['Luck (EMG: in total · per roll)', `${fmt(stats.luck.total)} · ${stats.luck.rolls ? fmt(stats.luck.total / stats.luck.rolls) : '—'}`],
    ['Decisions (unforced + cube)', n(stats.overall.decisions)],
  ];
}

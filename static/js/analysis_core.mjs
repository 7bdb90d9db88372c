// The analysis page's pure part (no DOM): steps over a match's decisions, verdicts, the
// win-chance series of the graph and the "only my errors" filter. Tested with node --test.
import { applySteps } from './state.mjs';
import { placeXY } from './board.mjs';
import { gettext as _, interpolate, ltrNumbers, ltrText, ngettext, pgettext } from './lib/i18n.mjs';

const say = (format, values) => ltrNumbers(interpolate(format, values, true));
/** The error marks (GNU Backgammon's), as words. */
export function markWord(mark) {
  return { doubtful: _('Doubtful'), bad: _('Bad'), very_bad: _('Very bad') }[mark] || mark || '';
}
const markLower = mark => ({ doubtful: _('doubtful'), bad: _('bad'), very_bad: _('very bad') }[mark] || mark);
/** "white" -> "White", in the page's language. */
export const colourWord = c => (c === 'white' ? _('White') : c === 'black' ? _('Black') : '');
const other = c => (c === 'white' ? 'black' : 'white');
const fmt = (x, d = 3) => (x === null || x === undefined ? '—' : ltrNumbers((x >= 0 ? '+' : '') + Number(x).toFixed(d)));

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
  return { no_double: _('No double'), double_take: _('Double, take'), double_pass: _('Double, pass'),
    take: _('Take'), drop: _('Pass'), pass: _('Pass'), beaver: _('Beaver') }[action] || action;
}

/** The headline of a step: who did what, and how good it was. */
export function verdict(s) {
  const d = s.d, who = colourWord(d.player);
  const mark = markOf(d);
  const badge = mark ? say(_('%(mark)s (−%(loss)s)'), { mark: markWord(mark), loss: lossOf(d).toFixed(3) }) : _('No error');
  if (d.kind === 'move') {
    const dice = d.dice ? d.dice.join('') : '';
    if (!d.play) return say(dice ? _('%(who)s %(dice)s: no play (the game ended)') : _('%(who)s no play (the game ended)'), { who, dice });
    if (d.play.forced) return say(_('%(who)s %(dice)s: %(play)s · forced'), { who, dice, play: ltrText(d.play.notation) || _('cannot move') });
    const made = alternatives(d).find(a => a.played);
    const r = made ? made.rank : d.play.rank;
    const rank = r === 1 ? _('best play') : say(_('rank %(rank)s of %(count)s'), { rank: r, count: d.play.candidates });
    return say(_('%(who)s %(dice)s: %(play)s · %(rank)s · %(verdict)s'), { who, dice, play: ltrText(d.play.notation), rank, verdict: badge });
  }
  const cube = d.cube || {};
  const right = d.kind === 'double' ? cubeWords(cube.best) : cubeWords(cube.takeRight);
  const action = { double: _('%(who)s doubles · right: %(right)s · %(verdict)s'),
    drop: _('%(who)s passes · right: %(right)s · %(verdict)s'),
    beaver: _('%(who)s beavers · right: %(right)s · %(verdict)s') }[d.kind] || _('%(who)s takes · right: %(right)s · %(verdict)s');
  return say(action, { who, right, verdict: badge });
}

/** The cube line of a step (the cube decision before a roll, or the double's numbers). */
export function cubeLine(d) {
  const c = d.cube;
  if (!c) return null;
  const figures = say(_('Cube: no double %(nd)s, double/take %(dt)s, double/pass %(dp)s · best: %(best)s'),
    { nd: fmt(c.nd), dt: fmt(c.dt), dp: fmt(c.dp), best: cubeWords(c.best) });
  if (d.kind !== 'move') return figures;
  const own = !c.mark ? _('No double was right') : c.loss
    ? say(_('No double was %(mark)s (−%(loss)s)'), { mark: markLower(c.mark), loss: c.loss.toFixed(3) })
    : say(_('No double was %(mark)s'), { mark: markLower(c.mark) });
  return `${figures} · ${own}`;
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
      plyText: shallow ? plyWord(a.ply || 0) : '', lossText: a.loss ? ltrNumbers(`−${a.loss.toFixed(3)}`) : '',
      win: a.probs ? a.probs.win : null };
  });
}

/** The note under the list of plays when some were looked at less deeply than the best. */
export function shallowNote(alts) {
  const shallow = alts.filter(a => a.shallow);
  if (!shallow.length) return '';
  const deepest = Math.max(...alts.map(a => a.ply || 0));
  return say(_('Plays marked %(plies)s were not looked at %(depth)s deep (the filter left them out): their equity is a quicker estimate.'), { plies: [...new Set(shallow.map(a => a.plyText))].join(_(' or ')),
    depth: plyWord(deepest) });
}

/** "2-ply": an analysis depth (GNU Backgammon plies). */
export function plyWord(n) {
  return say(pgettext('analysis depth', '%(n)s-ply'), { n });
}

/** Luck in EMG: "+0.123 EMG (lucky)". */
export function luckText(luck) {
  if (!luck) return '';
  const word = luckWord(luck.mark);
  return word ? say(_('%(luck)s EMG (%(mark)s)'), { luck: fmt(luck.value), mark: word }) : say(_('%(luck)s EMG'), { luck: fmt(luck.value) });
}

/** The luck marks as words ("very unlucky"). */
export function luckWord(mark) {
  return { very_lucky: _('very lucky'), lucky: _('lucky'), unlucky: _('unlucky'), very_unlucky: _('very unlucky') }[mark] || '';
}

/** What luck means, in one line (the unit of every luck figure on the page). */
export const LUCK_NOTE = _('Luck: what a roll gave compared with the average of all 36 rolls, in EMG (equity in money-game units: 1.000 is a single game at a cube of 1); positive is lucky.');

/** gnubg's rating scale: each word with the error rate below which it applies (millipoints
 * of EMG per decision) and the same bound as PR (half the error rate). The site's ratings
 * come from the error rate (games/analysis/marks.py RATINGS: a test keeps them equal). */
export const RATING_SCALE = [
  ['supernatural', 2], ['world_class', 5], ['expert', 8], ['advanced', 12], ['intermediate', 18],
  ['casual_player', 26], ['beginner', 35], ['awful', null],
];

/** "casual_player" -> "Casual player". */
export function ratingWord(r) {
  if (!r) return '—';
  return { supernatural: _('Supernatural'), world_class: _('World class'), expert: _('Expert'), advanced: _('Advanced'),
    intermediate: _('Intermediate'), casual_player: _('Casual player'), beginner: _('Beginner'), awful: _('Awful') }[r]
    || String(r).replace('_', ' ');
}

/** The scale as lines: "Supernatural: PR below 1.0 (error rate below 2.0)". */
export function ratingScale() {
  let last = null;
  return RATING_SCALE.map(([word, limit]) => {
    const line = limit === null
      ? say(_('%(rating)s: PR %(pr)s or more (error rate %(rate)s or more)'),
        { rating: ratingWord(word), pr: (last / 2).toFixed(1), rate: last.toFixed(1) })
      : say(_('%(rating)s: PR below %(pr)s (error rate below %(rate)s)'),
        { rating: ratingWord(word), pr: (limit / 2).toFixed(1), rate: limit.toFixed(1) });
    last = limit;
    return { word, line };
  });
}

/** What PR and the rating mean, in one line. */
export const PR_NOTE = _('PR (performance rating): 500 × the equity (EMG) given up per decision that counts (unforced checker plays, close or actual cube decisions); lower is better, 0 is perfect. The error rate is the same in millipoints of EMG (mEMG) per decision (twice the PR). The rating word comes from it, on GNU Backgammon’s scale:');

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
        ? `${d.dice ? d.dice.join('') + ': ' : ''}${d.play && d.play.loss ? ltrText(d.play.notation) : _('no double')}`
        : { double: _('double'), take: _('take'), drop: _('pass'), beaver: _('beaver') }[d.kind] || d.kind;
      return { index: s.index, game: s.game, loss, mark, player: d.player,
        text: say(_('Game %(game)s, decision %(decision)s: %(who)s %(what)s · %(mark)s (−%(loss)s)'),
          { game: s.game + 1, decision: s.index + 1, who: colourWord(d.player), what, mark: markWord(mark), loss: loss.toFixed(3) }) };
    });
}

/** Statistics rows of one player's stats object (the analysis JSON's ``stats``). */
export function statRows(stats) {
  const n = x => (x === null || x === undefined ? '—' : String(x));
  return [
    [pgettext('performance rating, abbreviated', 'PR'), n(stats.overall.pr)],
    [_('Error rate (mEMG per decision)'), n(stats.overall.errorRate)],
    [pgettext("how well a player played, on gnubg's scale: 'Rating: Expert'", 'Rating'), ratingWord(stats.overall.rating)],
    [_('Checker error rate'), n(stats.checker.errorRate)],
    [_('Checker errors (doubtful/bad/very bad)'),
      `${stats.checker.marks.doubtful}/${stats.checker.marks.bad}/${stats.checker.marks.very_bad}`],
    [_('Cube error rate'), n(stats.cube.errorRate)],
    [_('Cube errors (doubtful/bad/very bad)'), `${stats.cube.marks.doubtful}/${stats.cube.marks.bad}/${stats.cube.marks.very_bad}`],
    [_('Luck (EMG: in total · per roll)'), `${fmt(stats.luck.total)} · ${stats.luck.rolls ? fmt(stats.luck.total / stats.luck.rolls) : '—'}`],
    [_('Decisions (unforced + cube)'), n(stats.overall.decisions)],
  ];
}

// -- arrows on the board before a checker play -------------------------------------------------

const HALF_Y = 320;  // the board's vertical middle (board.mjs: HEIGHT / 2)

function stackOf(pos, p, color) {
  if (typeof p !== 'number') return 0;
  const n = pos.board[p] || 0;
  return color === 'white' ? Math.max(0, n) : Math.max(0, -n);
}

function spot(pos, p, color, view, leaving) {
  if (p === 'bar' || p === 'off') return placeXY({ at: p, color, i: 0 }, view);
  const n = stackOf(pos, p, color);
  return placeXY({ at: p, color, i: leaving ? Math.max(0, Math.min(n, 5) - 1) : Math.min(n, 4) }, view);
}

/** One checker step as SVG path data: a curve bending towards the board's middle (so an arrow
 * along one side is not hidden under the checkers), nudged sideways by ``shift`` pixels. */
function stepPath(a, b, shift) {
  const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
  const nx = -dy / len * shift, ny = dx / len * shift;
  const mx = (a.x + b.x) / 2 + nx, my = (a.y + b.y) / 2 + ny;
  const toward = HALF_Y - my;  // along one side: bend towards the middle, at most by half the step
  const bend = Math.abs(dy) < 60 ? Math.sign(toward) * Math.min(Math.abs(toward) * 0.45, len * 0.5) : 0;
  const r = v => v.toFixed(1);
  return `M${r(a.x + nx)},${r(a.y + ny)} Q${r(mx)},${r(my + bend)} ${r(b.x + nx)},${r(b.y + ny)}`;
}

/** The arrows to draw on the board BEFORE a checker play: the play made and the best play, each
 * a list of checker steps ``{kind: 'played' | 'best' | 'both', from, to, n, d, end}`` (``d``: SVG
 * path data in the board's coordinates for ``view`` = {you, flipped}; ``n``: how many checkers
 * make that step; ``end``: where the arrow ends). ``both`` when the play made was the best;
 * a forced play shows the play made alone. [] for cube decisions. */
export function arrowsFor(d, view = { you: 'white', flipped: false }) {
  if (d.kind !== 'move' || !d.play || !d.play.moves) return [];
  const pos = d.position, color = d.player;
  const best = d.play.forced ? null : alternatives(d)[0] || null;
  const same = !best || best.played;
  const draw = (moves, kind, shift) => {
    const seen = new Map();  // the same step twice or more (6/5(2)) is one arrow with a count
    for (const m of moves) {
      const key = `${m.from}>${m.to}`;
      if (seen.has(key)) { seen.get(key).n += 1; continue; }
      const a = spot(pos, m.from, color, view, true), b = spot(pos, m.to, color, view, false);
      seen.set(key, { kind, from: m.from, to: m.to, n: 1, d: stepPath(a, b, shift), end: b });
    }
    return [...seen.values()];
  };
  if (same) return draw(d.play.moves, d.play.forced ? 'played' : 'both', 0);
  return [...draw(best.moves, 'best', 7), ...draw(d.play.moves, 'played', -7)];
}

// -- per game -----------------------------------------------------------------------------------

/** One row per game: its number, the score at its start, the result and each player's error rate,
 * PR and luck (the game's own statistics), and the index of its first step. */
export function gameRows(result) {
  let first = 0;
  return (result.games || []).map((g, k) => {
    const side = c => {
      const st = (g.stats || {})[c];
      if (!st) return { errorRate: null, pr: null, luck: null, rating: null };
      return { errorRate: st.overall.errorRate, pr: st.overall.pr, luck: st.luck.total, rating: st.overall.rating };
    };
    const row = { game: k, number: (g.game && g.game.number) || k + 1, score: g.game ? g.game.score : null,
      length: g.game ? g.game.matchLength : 0, result: g.game ? g.game.result : null, first,
      decisions: g.decisions.length, white: side('white'), black: side('black') };
    first += g.decisions.length;
    return row;
  });
}

/** The result of a game in words: "White wins 2 points" (null: not over). */
export function resultText(result) {
  if (!result || !result.winner) return _('Not finished');
  const n = result.points || 0;
  return say(ngettext('%(who)s wins %(n)s point', '%(who)s wins %(n)s points', n), { who: colourWord(result.winner), n });
}

/** The equity graph of one game: its steps' indices and White's chance to win after each
 * (``series``: :func:`winSeries` of the whole match), with the errors to mark. */
export function gameGraph(steps, series, game) {
  return steps.filter(s => s.game === game).map(s => ({
    index: s.index, win: series[s.index], mark: markOf(s.d), player: s.d.player }));
}

/** A number with its sign and three decimals ("+0.123"), or "—". */
export const signed = fmt;

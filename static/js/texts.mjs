// Words the game page shows: results, scores, clocks (pure functions), in the page's language.
import { gettext as _, interpolate, ngettext, pgettext } from './lib/i18n.mjs';

/** How a game or a match ended, as the end of "by ...": a reason code to words. */
export function reasonText(code) {
  const words = { drop: _('a pass'), resign: _('resignation'), forfeit: _('forfeit'), timeout: _('time'),
    abandoned: _('abandonment'), suspended: _('an administrator’s suspension (a forfeit)'), aborted: _('an abort'),
    last_roll: _('the last roll') };
  return words[code] || code;
}

/** A forfeit's or an abort's reason code as a word ("timeout", "left"); unknown codes as they are. */
export function reasonWord(code) {
  const words = { timeout: _('timeout'), abandoned: _('abandoned'), suspended: _('suspended'), left: _('left'),
    absent: _('absent'), forfeit: _('forfeit'), cancelled: _('cancelled'), aborted: _('aborted'),
    'aborted by an administrator': _('aborted by an administrator') };
  return words[code] || code;
}

/** A game's kind: single, gammon, backgammon (the players' own words). */
export function kindWord(kind) {
  const words = { single: _('single'), gammon: _('gammon'), backgammon: _('backgammon'), tie: _('tie') };
  return words[kind] || kind;
}

/** "white" -> "White", in the page's language. */
export function colorName(color) {
  if (color === 'white') return _('White');
  if (color === 'black') return _('Black');
  return color ? color[0].toUpperCase() + color.slice(1) : '';
}

/** How a forfeiting player lost the match (``matchReason`` of a forfeit): "%(name)s ..." sentences. */
export function forfeitSentence(reason) {
  const sentences = { forfeit: _('%(name)s left the match'), timeout: _('%(name)s ran out of time'),
    abandoned: _('%(name)s abandoned the match'), suspended: _('%(name)s was suspended by an administrator') };
  return sentences[reason] || null;
}

/** "Ann wins 2 points (gammon, by resignation)." ``nameOf(color)`` names a seat.
 * A match awarded by forfeit: its game in progress scores nothing (0 points). */
export function resultText(r, nameOf) {
  if (!r) return _('Game over.');
  if (!r.winner) return r.reason === 'aborted' ? _('Game aborted: no result.') : _('No winner (a tie).');
  if (r.reason === 'forfeit' && !r.points) {
    return interpolate(_('%(name)s wins by forfeit: the match is awarded, and this game scores no points.'), { name: nameOf(r.winner) }, true);
  }
  const cube = r.cubeValue > 1, by = r.reason && r.reason !== 'bearoff';
  const n = r.points;
  const format = cube && by
    ? ngettext('%(name)s wins %(points)s point (%(kind)s, cube %(cube)s, by %(reason)s).', '%(name)s wins %(points)s points (%(kind)s, cube %(cube)s, by %(reason)s).', n)
    : cube ? ngettext('%(name)s wins %(points)s point (%(kind)s, cube %(cube)s).', '%(name)s wins %(points)s points (%(kind)s, cube %(cube)s).', n)
    : by ? ngettext('%(name)s wins %(points)s point (%(kind)s, by %(reason)s).', '%(name)s wins %(points)s points (%(kind)s, by %(reason)s).', n)
    : ngettext('%(name)s wins %(points)s point (%(kind)s).', '%(name)s wins %(points)s points (%(kind)s).', n);
  return interpolate(format, { name: nameOf(r.winner), points: n, kind: kindWord(r.kind), cube: r.cubeValue,
    reason: by ? reasonText(r.reason) : '' }, true);
}

/** "Score: Ann 1 – 2 Ben (to 5)". */
export function scoreText(g, match, nameOf) {
  const length = match ? match.length : 0;
  const values = { white: nameOf('white'), black: nameOf('black'), a: g.score[0], b: g.score[1], length };
  return interpolate(length ? _('Score: %(white)s %(a)s – %(b)s %(black)s (to %(length)s)') : _('Score: %(white)s %(a)s – %(b)s %(black)s'), values, true);
}

/** A match's time control (``timeControl`` of a match: its numbers, not its ``label``, which is
 * worded once by the server for whoever caused a broadcast) in the reader's language. */
export function timeControlText(tc) {
  if (!tc) return '';
  if (tc.kind === 'correspondence') {
    const perMove = interpolate(ngettext('%(days)s day per move', '%(days)s days per move', tc.daysPerMove), { days: tc.daysPerMove }, true);
    if (!tc.bankDays) return perMove;
    const bank = interpolate(ngettext('%(days)s day bank', '%(days)s days bank', tc.bankDays), { days: tc.bankDays }, true);
    return interpolate(_('%(per_move)s + %(bank)s'), { per_move: perMove, bank }, true);
  }
  return interpolate(_('%(delay)s s delay + %(bank)s s bank per point'), { delay: tc.delay, bank: tc.bankPerPoint }, true);
}

/** Milliseconds as m:ss (rounded up). */
/** A correspondence clock's time: "2d 5h", "5h 20m", "12m" (rounded down). */
export function fmtDays(ms) {
  if (ms === null || ms === undefined) return '';
  const m = Math.max(0, Math.floor(ms / 60000)), d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60);
  if (d > 0) return interpolate(pgettext('a short duration', '%(days)sd %(hours)sh'), { days: d, hours: h }, true);
  return h > 0
    ? interpolate(pgettext('a short duration', '%(hours)sh %(minutes)sm'), { hours: h, minutes: m % 60 }, true)
    : interpolate(pgettext('a short duration', '%(minutes)sm'), { minutes: m % 60 }, true);
}

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The end-of-match dialog's ``{title, body}`` for a ``game_end`` that ended a match with a
 * winner. ``you``: the viewer's colour (null for a spectator). A forfeit says who forfeited
 * and how; the score shown beside it is the one reached by play. */
export function matchEndText(g, nameOf, you) {
  const winner = g.matchWinner, loser = winner === 'white' ? 'black' : 'white';
  const forfeit = forfeitSentence(g.matchReason);
  const title = you
    ? (winner === you ? (forfeit ? _('You won the match by forfeit') : _('You won the match!'))
      : (forfeit ? _('You lost the match by forfeit') : _('You lost the match')))
    : interpolate(forfeit ? _('%(name)s wins the match by forfeit') : _('%(name)s wins the match'), { name: nameOf(winner) }, true);
  if (!forfeit) return { title, body: resultText(g, nameOf) };
  const awarded = interpolate(_('%(forfeit)s: the match is awarded to %(winner)s.'),
    { forfeit: interpolate(forfeit, { name: nameOf(loser) }, true), winner: nameOf(winner) }, true);
  const game = g.points ? interpolate(_('The game in progress: %(result)s'), { result: resultText(g, nameOf) }, true)
    : _('The game in progress scores no points: the score is the one reached by play.');
  return { title, body: `${awarded} ${game}` };
}

/** The result marked on the board at a game's end (board.mjs's plaque): ``{color, title, detail}``. */
export function resultPlaque(r, nameOf) {
  if (!r || !r.winner) return { color: null, title: r && r.reason === 'aborted' ? _('Game aborted') : _('Game over'), detail: _('No result') };
  const title = interpolate(_('%(name)s wins'), { name: nameOf(r.winner) }, true);
  if (r.reason === 'forfeit' && !r.points) return { color: r.winner, title, detail: _('by forfeit: no points') };
  const detail = interpolate(ngettext('%(points)s point · %(kind)s', '%(points)s points · %(kind)s', r.points),
    { points: r.points, kind: kindWord(r.kind) }, true);
  return { color: r.winner, title, detail };
}

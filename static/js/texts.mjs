// Words the game page shows: results, scores, clocks (pure functions), in the page's language.
import { gettext as _, interpolate, ngettext } from './lib/i18n.mjs';

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

/** "Ann wins 2 points (gammon, by resignation)." ``nameOf(color)`` names a seat. */
export function resultText(r, nameOf) {
  if (!r) return _('Game over.');
  if (!r.winner) return r.reason === 'aborted' ? _('Game aborted: no result.') : _('No winner (a tie).');
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

/** Milliseconds as m:ss (rounded up). */
export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

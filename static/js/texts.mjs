// Words the game page shows: results, scores, clocks (pure functions).

export const REASONS = { drop: 'a pass', resign: 'resignation', forfeit: 'forfeit', timeout: 'time',
  abandoned: 'abandonment', suspended: 'an administrator’s suspension (a forfeit)', aborted: 'an abort',
  last_roll: 'the last roll' };

/** "Ann wins 2 points (gammon, by resignation)." ``nameOf(color)`` names a seat. */
export function resultText(r, nameOf) {
  if (!r) return 'Game over.';
  if (!r.winner) return r.reason === 'aborted' ? 'Game aborted: no result.' : 'No winner (a tie).';
  return `${nameOf(r.winner)} wins ${r.points} point${r.points === 1 ? '' : 's'} (${r.kind}` +
    `${r.cubeValue > 1 ? `, cube ${r.cubeValue}` : ''}${r.reason && r.reason !== 'bearoff' ? `, by ${REASONS[r.reason] || r.reason}` : ''}).`;
}

/** "Score: Ann 1 – 2 Ben (to 5)". */
export function scoreText(g, match, nameOf) {
  const length = match ? match.length : 0;
  return `Score: ${nameOf('white')} ${g.score[0]} – ${g.score[1]} ${nameOf('black')}${length ? ` (to ${length})` : ''}`;
}

/** Milliseconds as m:ss (rounded up). */
/** A correspondence clock's time: "2d 5h", "5h 20m", "12m" (rounded down). */
export function fmtDays(ms) {
  if (ms === null || ms === undefined) return '';
  const m = Math.max(0, Math.floor(ms / 60000)), d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60);
  if (d > 0) return `${d}d ${h}h`;
  return h > 0 ? `${h}h ${m % 60}m` : `${m % 60}m`;
}

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

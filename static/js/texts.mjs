// Words the game page shows: results, scores, clocks (pure functions).

export const REASONS = { drop: 'a pass', resign: 'resignation', forfeit: 'forfeit', timeout: 'time',
  abandoned: 'abandonment', suspended: 'an administrator’s suspension (a forfeit)', aborted: 'an abort',
  last_roll: 'the last roll' };

/** How a forfeiting player lost the match (``matchReason`` of a forfeit). */
export const FORFEITS = { forfeit: 'left the match', timeout: 'ran out of time', abandoned: 'abandoned the match',
  suspended: 'was suspended by an administrator' };

/** "Ann wins 2 points (gammon, by resignation)." ``nameOf(color)`` names a seat.
 * A match awarded by forfeit: its game in progress scores nothing (0 points). */
export function resultText(r, nameOf) {
  if (!r) return 'Game over.';
  if (!r.winner) return r.reason === 'aborted' ? 'Game aborted: no result.' : 'No winner (a tie).';
  if (r.reason === 'forfeit' && !r.points) return `${nameOf(r.winner)} wins by forfeit: the match is awarded, and this game scores no points.`;
  return `${nameOf(r.winner)} wins ${r.points} point${r.points === 1 ? '' : 's'} (${r.kind}` +
    `${r.cubeValue > 1 ? `, cube ${r.cubeValue}` : ''}${r.reason && r.reason !== 'bearoff' ? `, by ${REASONS[r.reason] || r.reason}` : ''}).`;
}

/** "Score: Ann 1 – 2 Ben (to 5)". */
export function scoreText(g, match, nameOf) {
  const length = match ? match.length : 0;
  return `Score: ${nameOf('white')} ${g.score[0]} – ${g.score[1]} ${nameOf('black')}${length ? ` (to ${length})` : ''}`;
}

/** Milliseconds as m:ss (rounded up). */
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
  const forfeit = FORFEITS[g.matchReason];
  const by = forfeit ? ' by forfeit' : '';
  const title = you ? (winner === you ? `You won the match${by}${forfeit ? '' : '!'}` : `You lost the match${by}`)
    : `${nameOf(winner)} wins the match${by}`;
  if (!forfeit) return { title, body: resultText(g, nameOf) };
  const game = g.points ? ` The game in progress: ${resultText(g, nameOf)}`
    : ' The game in progress scores no points: the score is the one reached by play.';
  return { title, body: `${nameOf(loser)} ${forfeit}: the match is awarded to ${nameOf(winner)}.${game}` };
}

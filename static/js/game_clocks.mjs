// The game page's clocks and the absent opponent's countdown (docs/PROTOCOL.md, "Clocks" and
// "Absence"). The server keeps time; ``offset`` is its clock minus ours, taken from the last
// snapshot or event that carried a clock.
import { OTHER } from './state.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';
import { fmtClock, fmtDays } from './texts.mjs';

/** The server's clock minus ours from a message with a clock (undefined when it has none). */
export function clockOffset(msg, now = Date.now()) {
  const clock = msg.t === 'snapshot' ? msg.d.clock : msg.state && msg.state.clock;
  if (msg.t !== 'snapshot' && !clock) return undefined;
  return clock ? Date.parse(clock.serverTime) - now : 0;
}

/** A seat's clock: the bank, or while it runs, the delay left ("1:30 +5s") or the bank left. */
export function clockText(state, color, offset, now = Date.now()) {
  const c = state.clock;
  if (!c) return '';
  const bank = c[color];
  if (c.correspondence) {  // days per move, then the bank (docs/CORRESPONDENCE.md)
    if (c.running !== color || !c.deadline || state.status === 'finished') {
      return interpolate(_('bank %(time)s'), { time: fmtDays(bank) }, true);
    }
    const left = Date.parse(c.deadline) - (now + offset);
    return left > 0 ? interpolate(_('%(time)s left'), { time: fmtDays(left) }, true) : _('time is up');
  }
  if (c.running !== color || !c.deadline || state.status === 'finished') return fmtClock(bank);
  const left = Date.parse(c.deadline) - (now + offset);
  const delay = Math.max(0, left - bank);
  return delay > 0 ? `${fmtClock(bank)} +${Math.ceil(delay / 1000)}s` : fmtClock(left);
}

/** Milliseconds until the match can be claimed; null when the opponent is here (or a bot). */
export function claimIn(state, offset, now = Date.now()) {
  const you = state.you, p = state.presence, c = state.clock;
  if (!you || state.status === 'finished') return null;
  if (c && c.correspondence) {  // a correspondence match is claimed on time, not on absence
    if (c.running !== OTHER[you] || !c.deadline) return null;
    return Math.max(0, Date.parse(c.deadline) - (now + offset));
  }
  if (!p) return null;
  const opp = p[OTHER[you]];
  if (!opp || opp.connected || opp.bot || !opp.awaySince) return null;
  const waited = now + offset - Date.parse(opp.awaySince);
  return Math.max(0, (p.claimAfter || 120) * 1000 - waited);
}

/** Redraw the two seats' clocks (the page calls it every quarter second). */
export function tickClocks(state, offset) {
  for (const seat of ['top', 'bottom']) {
    const el = document.getElementById(`seat-${seat}`), color = el.dataset.color;
    if (!color) continue;
    const c = el.querySelector('[data-clock]');
    c.textContent = clockText(state, color, offset);
    c.classList.toggle('running', !!state.clock && state.clock.running === color && state.status !== 'finished');
  }
}

// Every page of a signed-in player opens /ws/me/ (lib/socket.mjs): the notices meant for the
// player (a tournament match of theirs is ready) show at once at the top of whatever page is
// open, with a link to the match (docs/PROTOCOL.md, "The player socket").
import { openSocket } from './lib/socket.mjs';
import { gettext as _, interpolate } from './lib/i18n.mjs';

const box = document.getElementById('live-notices');

function show(d) {
  const item = document.createElement('li');
  item.className = 'message live-notice';
  item.dataset.match = d.match;
  const text = interpolate(_('Your match in %(tournament)s is ready: %(label)s against %(opponent)s.'),
    { tournament: d.name, label: d.label, opponent: d.opponent }, true);
  item.append(text, ' ');
  const link = document.createElement('a');
  link.className = 'button small';
  link.href = d.url;
  link.textContent = _('Play');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'button small ghost';
  close.textContent = _('Dismiss');
  close.addEventListener('click', () => item.remove());
  item.append(link, ' ', close);
  box.append(item);
  box.hidden = false;
}

if (box) {
  openSocket({
    path: '/ws/me/',
    pingEvery: 25000,
    stopCodes: [4001, 4003],
    onFrame(msg) {
      if (msg.t === 'tournament_match') show(msg.d);
    },
  });
}

// The settings page's "notices in this browser": registers the service worker (/sw.js),
// asks the browser for a push subscription with the site's VAPID key, and sends it to
// /push/subscribe (or removes it). docs/CORRESPONDENCE.md, "Web Push".
import { csrfToken } from './lib/dom.mjs';
import { gettext as _ } from './lib/i18n.mjs';

const box = document.getElementById('push-box');
const status = document.getElementById('push-status');

function keyBytes(base64url) {
  const pad = '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob((base64url + pad).replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, c => c.charCodeAt(0));
}

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrfToken() },
    body: JSON.stringify(body) });
  if (!r.ok) throw new Error((await r.json()).error.message);
}

async function turnOn() {
  if ((await Notification.requestPermission()) !== 'granted') { status.textContent = _('This browser does not allow notices.'); return; }
  const reg = await navigator.serviceWorker.register('/sw.js');
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
  await post('/push/subscribe', sub.toJSON());
  status.textContent = _('Notices are on in this browser.');
}

async function turnOff() {
  const reg = await navigator.serviceWorker.getRegistration('/sw.js');
  const sub = reg && await reg.pushManager.getSubscription();
  if (sub) { await post('/push/unsubscribe', { endpoint: sub.endpoint }); await sub.unsubscribe(); }
  status.textContent = _('Notices are off in this browser.');
}

if (box && 'serviceWorker' in navigator && 'PushManager' in window) {
  box.hidden = false;
  document.getElementById('push-on').addEventListener('click', () => turnOn().catch(e => { status.textContent = e.message; }));
  document.getElementById('push-off').addEventListener('click', () => turnOff().catch(e => { status.textContent = e.message; }));
}

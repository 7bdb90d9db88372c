// The service worker of the site's Web Push notices (docs/CORRESPONDENCE.md, "Web Push"):
// shows each pushed notice, and a click opens (or focuses) its page.
self.addEventListener('push', event => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: 'Backgammon', body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || 'Backgammon', {
    body: data.body || '', icon: '/static/favicon.svg', data: { url: data.url || '/matches/?turn=mine' },
  }));
});

self.addEventListener('notificationclick', event => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: 'window' }).then(list => {
    for (const client of list) if (client.url === url && 'focus' in client) return client.focus();
    return self.clients.openWindow(url);
  }));
});

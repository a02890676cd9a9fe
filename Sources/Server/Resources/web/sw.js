// WatchBox's service worker: keeps the app and the floor plans that were viewed, so that they still
// show when the hub cannot be reached (issue 8). Network first, always: when the hub answers, its
// answer is shown and kept; when it does not, the kept copy is shown with two headers the app reads:
// X-WatchBox-Offline: 1, and X-WatchBox-Cached-At: when the copy was kept.
//
// Kept: the app's files; GET /api/sites, /api/plans/{id} and plan pictures; and GET /api/cameras only
// when asked with X-WatchBox-Offline: allow (the plans view's names). Nothing else (live video, events,
// snapshots, changes) is touched.

const version = 'watchbox-v1';
const shell = ['/', '/index.html', '/style.css', '/plans.css', '/app.js', '/api.js', '/dialogs.js', '/grid.js', '/icons.js',
  '/player.js', '/status.js', '/viewer.js', '/plans.js', '/plan-stage.js', '/favicon.svg',
  '/discovery.css', '/discovery.js', '/library.css', '/library.js', '/library-markup.js', '/calendar.js', '/timeline.js', '/playback.js', '/storage.js', '/recording.js'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(version).then((cache) => cache.addAll(shell)).catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== version) await caches.delete(key);
    await self.clients.claim();
  })());
});

function kept(request, url) {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  if (request.mode === 'navigate') return true;
  const path = url.pathname;
  if (path === '/api/sites' || /^\/api\/plans\/[0-9A-Fa-f-]{36}(\/image)?$/.test(path)) return true;
  if (path === '/api/cameras') return request.headers.get('X-WatchBox-Offline') === 'allow';
  if (path.startsWith('/api/')) return false;
  return shell.includes(path);
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (!kept(event.request, url)) return;
  event.respondWith(networkFirst(event.request, url));
});

async function networkFirst(request, url) {
  const cache = await caches.open(version);
  // Navigations are kept under "/": the app is one page.
  const key = request.mode === 'navigate' ? '/' : url.pathname + url.search;
  try {
    const response = await fetch(request);
    if (response.ok && response.status === 200) {
      const headers = new Headers(response.headers);
      headers.set('X-WatchBox-Cached-At', new Date().toISOString());
      const copy = new Response(await response.clone().blob(), { status: 200, statusText: response.statusText, headers });
      await cache.put(key, copy);
    }
    return response;
  } catch (error) {
    const copy = (await cache.match(key)) || (url.pathname.endsWith('/image') ? await cache.match(url.pathname, { ignoreSearch: true }) : null);
    if (!copy) throw error;
    const headers = new Headers(copy.headers);
    headers.set('X-WatchBox-Offline', '1');
    return new Response(await copy.blob(), { status: 200, statusText: 'OK (offline copy)', headers });
  }
}

// The installed app's service worker, served at /sw.js (so it controls every page) by
// dicegames.web.pwa, which fills in VERSION (a digest of every static file) and FILES (their
// addresses). It keeps the static files (pages' modules, style, icons) in a cache of that
// version: they load from the phone itself, and a server with other files has another
// version, so the next visit installs a new worker and drops the old cache. Pages, the API,
// the boards, the catalogues and the websocket always go to the server: a game is live.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `dicegames-static-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("dicegames-static-") && key !== CACHE)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin
      || !url.pathname.startsWith("/static/")) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(url.pathname);
    if (kept) return kept;
    const answer = await fetch(event.request);
    if (answer.ok) await cache.put(url.pathname, answer.clone());
    return answer;
  }));
});

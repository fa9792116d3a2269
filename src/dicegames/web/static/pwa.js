// The installable app: register the service worker (static/sw.js, served at /sw.js) once
// the page has loaded, so installing it never slows the page down. The manifest
// (static/manifest.webmanifest) is linked from each page's head.
if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* no cache: the app still works */ });
  });
}

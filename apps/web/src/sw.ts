/// <reference lib="webworker" />
// The service worker (issue 18): the app shell from the precache so the app opens with no
// network, and manuals saved for offline served from their own cache at the URL the app and
// the viewer fetch. Built by vite-plugin-pwa (injectManifest), which fills in __WB_MANIFEST.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { createPartialResponse } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';

import { SAVED_MANUALS_CACHE } from './offline/saved-manuals-cache';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install serves the page that registered it at once, so it works offline without a reload.
clientsClaim();

// Every page load is the single-page app; the server's own paths are never answered with it.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/(api|auth-api|files|storage|dev|healthz)(\/|$)/],
  }),
);

// A stored file's bytes never change (a new version gets a new key), so a saved copy is always
// good. Ranges are cut from it, as pdf.js asks for them. Files not saved go to the network.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/files/'),
  async ({ request }) => {
    const saved = await caches
      .open(SAVED_MANUALS_CACHE)
      .then((cache) => cache.match(request.url, { ignoreSearch: true, ignoreVary: true }));
    if (!saved) return fetch(request);
    return request.headers.has('range') ? createPartialResponse(request, saved) : saved;
  },
);

// A new version waits until the user chooses to update (or every tab has closed), so an open
// session is never switched to other code halfway through.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

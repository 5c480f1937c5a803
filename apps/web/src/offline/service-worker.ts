import { useSyncExternalStore } from 'react';
import { registerSW } from 'virtual:pwa-register';

// A new version of the app, downloaded and waiting: the user decides when it takes over.
let updateReady = false;
let applyUpdate: (() => Promise<void>) | undefined;
const listeners = new Set<() => void>();

/**
 * Registers the service worker (src/sw.ts). Called after the first screen is up, from a lazy
 * chunk, so it costs the first load nothing.
 */
export function registerServiceWorker(): void {
  applyUpdate = registerSW({
    onNeedRefresh() {
      updateReady = true;
      for (const listener of listeners) listener();
    },
    onRegisterError: (error: unknown) =>
      console.warn('The app will not work offline: the service worker was refused.', error),
  });
}

/** Switches to the waiting version now: the page reloads once the new version has taken over. */
export function updateNow(): void {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  void applyUpdate?.();
}

/** True once a new version waits to take over. */
export function useUpdateReady(): boolean {
  return useSyncExternalStore(
    (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    () => updateReady,
  );
}

import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';

import { AppProviders } from '@/components/app-providers';
import { LoadingScreen } from '@/components/loading-screen';
import { applyTheme } from '@/lib/theme';
import './index.css';

// Two separate chunks: the hosted sign-in page must not start the app's client (which would
// restore a session and call the API), and the app does not need the sign-in forms.
const AuthPage = lazy(() => import('@/pages/auth/auth-page').then((module) => ({ default: module.AuthPage })));
const App = lazy(() => import('./app').then((module) => ({ default: module.App })));

applyTheme(); // before the first paint, so a dark-theme user never sees a white flash

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain <div id="root">');

// The service worker (offline app shell) registers once the first screen is up, from its own chunk.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener(
    'load',
    () => void import('@/offline/service-worker').then((module) => module.registerServiceWorker()),
  );
}

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <Suspense fallback={<LoadingScreen />}>{window.location.pathname === '/auth' ? <AuthPage /> : <App />}</Suspense>
    </AppProviders>
  </StrictMode>,
);

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// In development the API server runs separately on port 3000 (`npm run dev -w apps/server`);
// in production it serves this app itself, so these paths are same-origin either way.
const API_SERVER = 'http://127.0.0.1:3000';
const API_PATHS = ['/api', '/auth-api', '/healthz', '/storage'];

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Installable and offline (issue 18): the manifest, and src/sw.ts with the app shell precached.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false, // src/offline/service-worker.ts registers it, after the first screen
      // .mjs: the pdf.js viewer's worker, so saved manuals also open in the viewer offline.
      injectManifest: {
        globPatterns: ['**/*.{js,mjs,css,html,svg,png,woff2}'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'FieldAssist',
        short_name: 'FieldAssist',
        description:
          "The field technician's assistant: fixes from your own manuals, and your jobs on site, also with no network.",
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#193cb8',
        background_color: '#ffffff',
        categories: ['productivity', 'business', 'utilities'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  resolve: { tsconfigPaths: true },
  server: {
    proxy: Object.fromEntries(API_PATHS.map((path) => [path, { target: API_SERVER, ws: path === '/api' }])),
  },
  build: { outDir: 'dist', emptyOutDir: true },
});

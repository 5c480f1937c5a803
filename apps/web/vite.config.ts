import { createRequire } from 'node:module';
import { dirname } from 'node:path';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { viteStaticCopy } from 'vite-plugin-static-copy';

// In development the API server runs separately on port 3000 (`npm run dev -w apps/server`);
// in production it serves this app itself, so these paths are same-origin either way.
const API_SERVER = 'http://127.0.0.1:3000';
const API_PATHS = ['/api', '/auth-api', '/healthz', '/storage'];

// pdf.js fetches these at /pdfjs/ (see load-pdf.ts): its wasm decoders of JPEG 2000 (most scanned
// manuals) and JBIG2 images and of ICC colours, the 14 standard fonts, and the CMaps of CJK text.
const PDFJS = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_FILES = [
  { src: `${PDFJS}/wasm/{*.wasm,LICENSE_*}`, dest: 'pdfjs/wasm' },
  { src: `${PDFJS}/standard_fonts/*`, dest: 'pdfjs/standard_fonts' },
  { src: `${PDFJS}/cmaps/*`, dest: 'pdfjs/cmaps' },
];

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    viteStaticCopy({ targets: PDFJS_FILES }),
    // Installable and offline (issue 18): the manifest, and src/sw.ts with the app shell precached.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false, // src/offline/service-worker.ts registers it, after the first screen
      // .mjs and .wasm: the pdf.js viewer's worker and decoders, so saved manuals (scans too) also
      // open in the viewer offline. Its fonts and CMaps (2.5 MB) are fetched only when a PDF needs them.
      injectManifest: {
        globPatterns: ['**/*.{js,mjs,wasm,css,html,svg,png,woff2}'],
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

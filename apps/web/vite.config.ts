import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API server runs separately on port 3000 (`npm run dev -w apps/server`);
// in production it serves this app itself, so these paths are same-origin either way.
const API_SERVER = 'http://127.0.0.1:3000';
const API_PATHS = ['/api', '/auth-api', '/healthz', '/storage'];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { tsconfigPaths: true },
  server: {
    proxy: Object.fromEntries(API_PATHS.map((path) => [path, { target: API_SERVER, ws: path === '/api' }])),
  },
  build: { outDir: 'dist', emptyOutDir: true },
});

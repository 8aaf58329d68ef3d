// The web app's build (Vite 8): `npm run build:web` writes web/dist, which the game server serves at /; `npm run dev`
// serves it with hot reload on :5173 and proxies the game server's routes (LOOPTALE_SERVER, default :8787).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.LOOPTALE_SERVER ?? 'http://localhost:8787';
/** Everything the game server answers itself (the app's routes are the rest). */
const SERVER_PATHS = ['/api', '/auth', '/storage', '/data', '/dev', '/marketing', '/metrics', '/openapi.json', '/docs', '/healthz', '/readyz'];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
    sourcemap: true,
    reportCompressedSize: false,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy: {
      ...Object.fromEntries(SERVER_PATHS.map((p) => [p, { target: server, changeOrigin: false }])),
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
    },
  },
});

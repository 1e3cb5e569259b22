import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: dir('./client'),
  plugins: [
    react(),
    tailwindcss(),
    // .br and .gz beside every text asset, made once at build: the server sends the one the
    // browser accepts (server/client-app.ts) instead of compressing on every request.
    compression({ algorithms: ['brotliCompress', 'gzip'] }),
  ],
  resolve: {
    alias: { '@contract': dir('./contract'), '@': dir('./client') },
  },
  build: {
    outDir: dir('./dist/client'),
    emptyOutDir: true,
    // 'hidden': maps are written for profiling (bench/) but not linked; the server never serves them.
    sourcemap: 'hidden',
    // .vite/manifest.json: which chunks each route loads, so the chat route's first-load JS can
    // be summed from the build (bench/bundle; docs/decisions/0011-the-chat-route-bundle-budget.md).
    manifest: true,
    rolldownOptions: {
      // Rolldown warns ([PLUGIN_TIMINGS]) when plugins take a large share of the build, as the
      // ones above (Tailwind, brotli at its best once per build) do on a slow or busy machine: on
      // a first `npm start` a newcomer cannot act on it, so it is not printed.
      checks: { bundlerTimings: false },
      // zod in a chunk of its own: left to itself the bundler puts it in a chunk shared with
      // what every page loads, though only forms and the report parsers use it.
      output: { codeSplitting: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]/ }] } },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:5000', '/ws': { target: 'ws://localhost:5000', ws: true } },
  },
});

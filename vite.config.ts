import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: dir('./client'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@contract': dir('./contract'), '@': dir('./client') },
  },
  // 'hidden': maps are written for profiling (bench/) but not linked; the server never serves them.
  build: { outDir: dir('./dist/client'), emptyOutDir: true, sourcemap: 'hidden' },
  server: {
    proxy: { '/api': 'http://localhost:5000', '/ws': { target: 'ws://localhost:5000', ws: true } },
  },
});

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Unit and integration tests. Server tests run in node against a real database (PGlite by
// default, PostgreSQL when DATABASE_URL is set); client tests (*.test.tsx) run in jsdom.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@contract': dir('./contract'), '@': dir('./client') } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['./test-support/fail-on-console-error.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['contract/**/*.test.ts', 'server/**/*.test.ts'],
          globalSetup: ['./test-support/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['client/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});

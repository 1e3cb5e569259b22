import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The second suite (PostgreSQL + Redis, DATABASE_URL set) reruns only what can reach a database
// or the bus. The client, the contract and the analyst (whose tests lint forbids to import
// storage or the app) behave the same on either, so they run once (docs/decisions/0017).
const onPostgres = Boolean(process.env.DATABASE_URL);
const SAME_ON_EVERY_DATABASE = ['contract/**', 'server/analyst/**', 'scripts/**'];

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
          include: ['contract/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(onPostgres ? SAME_ON_EVERY_DATABASE : [])],
          globalSetup: ['./test-support/global-setup.ts'],
        },
      },
      ...(onPostgres
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'client',
                environment: 'jsdom' as const,
                include: ['client/**/*.test.{ts,tsx}'],
                setupFiles: ['./test-support/client-contract.ts'],
              },
            },
          ]),
    ],
  },
});

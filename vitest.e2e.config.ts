import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// End-to-end tests: the real built server on a free port, a real Chromium, a real SMTP peer.
export default defineConfig({
  resolve: { alias: { '@contract': dir('./contract'), '@': dir('./client') } },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./test-support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One browser-driving file at a time: the machine has two cores.
    fileParallelism: false,
  },
});

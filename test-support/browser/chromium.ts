import { chromium, type Browser } from 'playwright-core';

// Chromium as the browser tests and the bundle benchmark run it: Debian's /usr/bin/chromium
// (CHROMIUM_PATH to change it), never a downloaded browser. No vitest here: benchmarks import it.

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

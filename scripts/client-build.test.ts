import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLogger, loadConfigFromFile } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

// The first `npm start` builds the web client. On a slow or busy machine the bundler warned
// "[PLUGIN_TIMINGS] JavaScript callbacks ran for …" in yellow, which a newcomer cannot act on
// (docs/decisions/0007-npm-start-builds-when-stale.md). The product's vite.config.ts turns that
// check off; these tests build a tiny page through a plugin slow enough to trigger it.

const configFile = fileURLToPath(new URL('../vite.config.ts', import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), 'atrium-client-build-'));
writeFileSync(path.join(root, 'index.html'), '<script type="module" src="./main.js"></script>');
writeFileSync(path.join(root, 'main.js'), 'document.title = "Atrium";\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a build prints through vite's logger, with a transform that takes 1.5 s. */
async function printedBy(checks: unknown): Promise<string[]> {
  const printed: string[] = [];
  const logger = createLogger('info');
  logger.info = (m) => void printed.push(m);
  logger.warn = (m) => void printed.push(m);
  logger.warnOnce = (m) => void printed.push(m);
  await build({
    configFile: false,
    root,
    logLevel: 'info',
    customLogger: logger,
    plugins: [
      {
        name: 'slow-on-a-busy-machine',
        async transform(code) {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          return code;
        },
      },
    ],
    build: { write: false, rolldownOptions: { checks } as never },
  });
  return printed;
}

describe('the client build a first npm start runs', () => {
  it('prints no [PLUGIN_TIMINGS] warning, however slow its plugins', async () => {
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, configFile);
    const checks = loaded?.config.build?.rolldownOptions?.checks;
    const printed = await printedBy(checks);
    expect(printed.join('\n')).toContain('built in');
    expect(printed.join('\n')).not.toContain('PLUGIN_TIMINGS');
  }, 60_000);

  it('would print it with the bundler left to its default (the check above can fail)', async () => {
    const printed = await printedBy(undefined);
    expect(printed.join('\n')).toContain('PLUGIN_TIMINGS');
  }, 60_000);
});

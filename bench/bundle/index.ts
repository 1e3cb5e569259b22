import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launchBrowser } from '../../test-support/browser/chromium';
import { builtClient, startAtrium } from '../lib/atrium';
import { report } from '../lib/report';

/**
 * The chat route's JavaScript on a first load, gzipped, and whether it is compressed
 * on the wire.
 *
 * The built client is served by the real app (buildApp, PGlite, a signed-in user with a chat); a
 * fresh Chromium opens /chat/<id> and waits until the network is idle. Over every JS response of
 * that load: the gzip size of its body (node:zlib, default level; what the file costs whatever
 * the server does) and the bytes actually sent (encoded body size, with its Content-Encoding).
 * The reference, built in the same run: React + react-dom alone, bundled and minified by
 * esbuild, gzipped the same way.
 *
 *   BENCH_CLIENT_DIR  a built client (default: vite build into a temp folder)
 *   CHROMIUM_PATH     default /usr/bin/chromium
 */
const KiB = 1024;
const GOAL_KIB = 200;
const gz = (b: Uint8Array) => gzipSync(b).length;

/** React + react-dom as a production bundle would carry them, gzipped. */
async function reactAloneGz(): Promise<number> {
  const out = await build({
    stdin: {
      contents:
        "import { createElement } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
        "createRoot(document.body).render(createElement('p', null, 'hi'));\n",
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return gz(out.outputFiles[0]!.contents);
}

interface JsFile {
  url: string;
  bytes: number;
  gz: number;
  sent: number;
  encoding: string;
}

const client = builtClient();
const atrium = await startAtrium({ clientDir: client.dir });
const browser = await launchBrowser();
let files: JsFile[] = [];
let reactGz = NaN;
try {
  reactGz = await reactAloneGz();
  const context = await browser.newContext();
  await context.addCookies([
    { name: atrium.cookie.name, value: atrium.cookie.value, url: atrium.base },
  ]);
  const page = await context.newPage();
  const pending: Array<Promise<JsFile | null>> = [];
  page.on('response', (res) => {
    const type = res.headers()['content-type'] ?? '';
    if (!/javascript/.test(type) && !/\.m?js(\?|$)/.test(res.url())) return;
    pending.push(
      (async () => {
        const body = await res.body();
        const sizes = await res.request().sizes();
        return {
          url: new URL(res.url()).pathname,
          bytes: body.length,
          gz: gz(body),
          sent: sizes.responseBodySize,
          encoding: res.headers()['content-encoding'] ?? '',
        };
      })().catch(() => null),
    );
  });
  const route = `${atrium.base}/chat/${atrium.chatId}`;
  await page.goto(route, { waitUntil: 'networkidle', timeout: 60_000 });
  if (!page.url().startsWith(route))
    throw new Error(`the chat route was not shown (landed on ${page.url()})`);
  files = (await Promise.all(pending)).filter((f): f is JsFile => f !== null);
  if (files.length === 0) throw new Error('no JavaScript was loaded');
  await context.close();
} finally {
  await browser.close();
  await atrium.close();
  client.cleanup();
}

console.log('chat route, first load, JavaScript responses:');
console.table(
  files.map((f) => ({
    file: f.url,
    KiB: +(f.bytes / KiB).toFixed(1),
    'gzip KiB': +(f.gz / KiB).toFixed(1),
    'sent KiB': +(f.sent / KiB).toFixed(1),
    'content-encoding': f.encoding || '(none)',
  })),
);
const sum = (k: 'bytes' | 'gz' | 'sent') => files.reduce((n, f) => n + f[k], 0) / KiB;
const uncompressed = files.filter((f) => !/^(br|gzip)$/.test(f.encoding));
await report('bundle', [
  {
    name: 'chat route JS on first load, gzipped',
    value: sum('gz'),
    unit: 'KiB',
    reference: { name: 'React + react-dom alone', value: reactGz / KiB },
    goal: { atMost: GOAL_KIB },
    note: `${files.length} files, ${sum('bytes').toFixed(0)} KiB raw; reference bundled by esbuild in this run`,
  },
  {
    name: 'chat route JS files sent without br/gzip Content-Encoding',
    value: uncompressed.length,
    unit: `of ${files.length} files`,
    goal: { atMost: 0 },
    note: `${sum('sent').toFixed(1)} KiB sent for the JS (encoded body sizes)${
      uncompressed.length ? `; uncompressed: ${uncompressed.map((f) => f.url).join(', ')}` : ''
    }`,
  },
]);

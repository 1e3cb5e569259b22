import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { connectDatabase, type Db } from '../../server/db/connect';
import { MemoryBus } from '../../server/realtime/bus';
import { seedDatabase } from '../../server/seed/seed';
import { benchUser, buildBenchApp } from '../lib/atrium';
import { seedFinishedChat } from '../lib/chats';
import { benchDatabase } from '../lib/postgres';
import { count, duration as seconds } from '../lib/quick';
import { alternate, median } from '../lib/stats';
import { report as reportFigures, type Figure } from '../lib/report';

/**
 * The history call (GET /api/chats/{id}) and an unchanged poll (If-None-Match -> 304) for a
 * 10- and a 1,000-message chat on PostgreSQL, under 50 concurrent clients.
 * Goals (bench/README.md): an unchanged poll is at most 1 KB and costs at most 1.2x as much for 1,000
 * messages as for 10. Uses its own database, dropped at the end.
 *
 *   BENCH_DATABASE_URL (or DATABASE_URL), default postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_DURATION seconds per measurement (default 5; BENCH_QUICK 2), BENCH_CONNECTIONS (default 50)
 */
const duration = seconds(5, 2, process.env.BENCH_DURATION);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = count(3, 2);

const benchDb = await benchDatabase('chat_history');
const dbUrl = new URL(benchDb.url);
const dbName = dbUrl.pathname.slice(1);
const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-'));

const report = {
  task_name: 'Headcount by department',
  content: [
    {
      type: 'text',
      text: '## Findings\n\n| Department | Headcount |\n|---|---|\n| Engineering | 42 |\n| Sales | 31 |\n\n'.repeat(
        4,
      ),
    },
    {
      type: 'chart',
      title: 'Headcount',
      chart_type: 'bar',
      config: {
        type: 'bar',
        data: { labels: ['Engineering', 'Sales'], datasets: [{ label: 'People', data: [42, 31] }] },
      },
    },
  ],
  next_steps: [{ step_description: 'Break the numbers down by location' }],
};

function seedChat(db: Db, userId: string, count: number): Promise<string> {
  return seedFinishedChat(db, userId, count, {
    question: (i) => `Question ${i}: how does headcount compare across departments this quarter?`,
    report: () => report,
    endsMinutesAgo: 0,
  });
}

/** Bytes on the wire of one response: status line, headers and body. */
function responseBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; etag: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = 0;
      res.on('data', (c: Buffer) => (body += c.length));
      res.on('end', () => {
        const head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n${res.rawHeaders
          .reduce<string[]>(
            (acc, v, i) => (i % 2 ? [...acc.slice(0, -1), `${acc.at(-1)}: ${v}`] : [...acc, v]),
            [],
          )
          .join('\r\n')}\r\n\r\n`;
        resolve({
          status: res.statusCode ?? 0,
          bytes: Buffer.byteLength(head) + body,
          etag: String(res.headers.etag ?? ''),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const database = await connectDatabase({ databaseUrl: dbUrl.toString() });
let figures: Figure[] = [];
try {
  await seedDatabase(database.db);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: dbUrl.toString(),
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret',
  });
  const log = pino({ level: 'silent' });
  const app = await buildBenchApp({ config, database, bus: new MemoryBus(), logger: log });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const user = await benchUser(database, config, { email: `bench-${dbName}@northwind.com` });
  const cookie = user.cookie.header;

  console.log(
    `chat-history: PostgreSQL, ${connections} concurrent clients, ${duration} s per measurement\n`,
  );
  const rows: Array<{ name: string; p50: number; p99: number; rps: number; bytes: number }> = [];
  const targets = [];
  for (const size of [10, 1000]) {
    const chatId = await seedChat(database.db, user.id, size);
    const url = `${base}/api/chats/${chatId}`;
    const full = await responseBytes(url, { cookie });
    const poll = await responseBytes(url, { cookie, 'if-none-match': full.etag });
    if (full.status !== 200 || poll.status !== 304)
      throw new Error(`unexpected statuses ${full.status} / ${poll.status}`);
    targets.push({ size, url, full, poll });
  }
  const run = async (name: string, url: string, headers: Record<string, string>, bytes: number) => {
    await autocannon({ url, connections, duration: 1, headers }); // warm-up
    const r = await autocannon({ url, connections, duration, headers });
    if (r.errors) throw new Error(`${name}: ${r.errors} request errors`);
    rows.push({
      name,
      p50: r.latency.p50,
      p99: r.latency.p99,
      rps: Math.round(r.requests.average),
      bytes,
    });
    return r.latency.mean;
  };
  // Polls first and alternated (medians of the rounds), so that neither a backlog of megabyte
  // histories nor a burst of load from elsewhere lands on one size only.
  const [small, large] = targets as [(typeof targets)[0], (typeof targets)[0]];
  let round = 0;
  const poll = (t: typeof small) => () =>
    run(
      `unchanged poll, ${t.size} messages (round ${Math.floor(round++ / 2) + 1})`,
      t.url,
      { cookie, 'if-none-match': t.full.etag },
      t.poll.bytes,
    );
  const polls = await alternate(rounds, { small: poll(small), large: poll(large) });
  for (const t of targets)
    await run(`history, ${t.size} messages`, t.url, { cookie }, t.full.bytes);
  console.table(
    rows.map((r) => ({
      measurement: r.name,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'req/s': r.rps,
      'bytes/response': r.bytes,
    })),
  );

  const method = `PostgreSQL, ${connections} clients (autocannon), ${duration} s per round, ${rounds} alternating rounds, medians`;
  figures = [
    {
      name: 'unchanged poll (304), bytes on the wire',
      value: Math.max(small.poll.bytes, large.poll.bytes),
      unit: 'B',
      goal: { atMost: 1024 },
      note: 'status line, headers and body',
    },
    {
      name: 'unchanged poll, mean latency, 1,000-message chat',
      value: median(polls.large),
      unit: 'ms',
      reference: { name: '10-message chat', value: median(polls.small) },
      goal: { ratio: true, atMost: 1.2 },
      note: method,
    },
  ];
  await app.close();
} finally {
  await database.close();
  await benchDb.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
await reportFigures('chat-history', figures);
// The pool and pg sockets are closed; whatever timers remain are not ours to wait for.
process.exit(process.exitCode ?? 0);

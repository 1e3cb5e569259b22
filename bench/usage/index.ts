import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { UsageGroupBy } from '@contract/admin';
import { usageReport } from '../../server/admin/usage';
import { connectDatabase } from '../../server/db/connect';
import { benchDatabase } from '../lib/postgres';
import { count } from '../lib/quick';
import { median } from '../lib/stats';
import { report as reportFigures } from '../lib/report';

/**
 * The Usage page's query for a company with 1,000,000 turns over a year, on PostgreSQL: the
 * figures of GET /api/admin/usage (usageReport) for each grouping. Goal (docs/decisions/0030-usage-people-by-day.md): under 300 ms.
 * The reference, measured in the same run, is the count a page without the roll-up would make:
 * one aggregate over the company's turn_usage rows.
 *
 * The turns are generated in SQL (400 people, three modules, four models, ten starters, a
 * year of days); the roll-ups are built from them with the same keys the turn runtime upserts
 * (server/workspace/turns/usage.repo.ts). Uses its own database, dropped at the end.
 *
 *   BENCH_DATABASE_URL (or DATABASE_URL), default postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_USAGE_TURNS (default 1,000,000)
 */
const TURNS = Number(process.env.BENCH_USAGE_TURNS ?? 1_000_000);
const rounds = count(7, 3);
const benchDb = await benchDatabase('usage');
const database = await connectDatabase({ databaseUrl: benchDb.url });
const { db } = database;
/** The rows of a query (both drivers answer `{ rows }`). */
const rowsOf = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

try {
  const [company] = await rowsOf<{ id: number }>(
    sql`insert into companies (name) values ('Usage Bench') returning id`,
  );
  const companyId = company!.id;
  const people = (
    await rowsOf<{ id: string }>(sql`
      insert into users (email, password, first_name, last_name, company_id, is_email_verified)
      select 'person' || g || '@usage-bench.example', 'x', 'P', 'B', ${companyId}, true
      from generate_series(1, 400) g returning id`)
  ).map((r) => r.id);
  const started = Date.now();
  // Generating a million rows takes longer than the app's statement and read timeouts allow one
  // query: a plain client without them does it. Only numbers and the ids just read go in.
  const setup = new pg.Client({ connectionString: benchDb.url });
  await setup.connect();
  try {
    await setup.query(`
      insert into turn_usage (company_id, module, user_id, model, provider, input_tokens,
        output_tokens, duration_ms, status, starter_id, created_at)
      select ${Number(companyId)},
        (array['brand-hub','governance','talent-intelligence'])[1 + g % 3],
        (array[${people.map((p) => `'${p}'::uuid`).join(',')}])[1 + ((g::bigint * 7919) % 400)::int],
        (array['builtin','openai:gpt-4.1-mini','openai:gpt-4.1','acme:llama-3.3-70b'])[1 + (g / 3) % 4],
        'openai', (g * 37) % 6000, (g * 11) % 900, (g * 13) % 30000,
        (array[200,200,200,200,200,200,499,502,504,206])[1 + (g * 17) % 10], null,
        timestamptz '2026-01-01' + ((g::float * 31536) / ${TURNS}::float) * interval '1000 seconds'
      from generate_series(1, ${TURNS}) g`);
    // The roll-ups the per-turn upserts would have left, with ten starters spread over the turns.
    await setup.query(`
      insert into usage_daily (day, company_id, module, model, starter_id, turns, errors,
        input_tokens, output_tokens, duration_ms)
      select created_at::date, company_id, module, model, (id % 11)::int, count(*),
        count(*) filter (where status not in (200, 499)), sum(input_tokens), sum(output_tokens),
        sum(duration_ms)
      from turn_usage group by 1, 2, 3, 4, 5`);
    await setup.query(`
      insert into usage_daily_users (day, company_id, module, model, starter_id, user_id, turns)
      select created_at::date, company_id, module, model, (id % 11)::int, user_id, count(*)
      from turn_usage group by 1, 2, 3, 4, 5, 6`);
    // A person's day alone, summed from the finer roll-up as the migration's backfill does.
    await setup.query(`
      insert into usage_daily_people (day, company_id, user_id, turns)
      select day, company_id, user_id, sum(turns)::int
      from usage_daily_users group by company_id, day, user_id`);
    await setup.query('analyze');
  } finally {
    await setup.end();
  }
  const [sizes] = await rowsOf<{ daily: number; users: number; people: number }>(sql`
      select (select count(*) from usage_daily)::int as daily,
             (select count(*) from usage_daily_users)::int as users,
             (select count(*) from usage_daily_people)::int as people`);
  console.log(
    `usage: ${TURNS} turns generated and rolled up in ${Date.now() - started} ms: ` +
      `${sizes!.daily} usage_daily rows, ${sizes!.users} usage_daily_users rows, ` +
      `${sizes!.people} usage_daily_people rows`,
  );

  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const year = { companyId, from: '2026-01-01', to: '2026-12-31' };
  const groupings: UsageGroupBy[] = ['day', 'module', 'model', 'starter'];
  const page: Record<string, number[]> = Object.fromEntries(groupings.map((g) => [g, []]));
  const scan: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    for (const groupBy of groupings)
      page[groupBy]!.push(await time(() => usageReport(db, { ...year, groupBy })));
    scan.push(
      await time(() =>
        db.execute(sql`select module, count(*), sum(input_tokens), count(distinct user_id)
          from turn_usage where company_id = ${companyId} group by module`),
      ),
    );
  }
  const reference = { name: 'one aggregate over the turns themselves', value: median(scan) };
  await reportFigures(
    'usage',
    groupings.map((groupBy) => ({
      name: `GET /api/admin/usage for a year of ${TURNS.toLocaleString('en-US')} turns, by ${groupBy}, PostgreSQL`,
      value: median(page[groupBy]!),
      unit: 'ms',
      reference,
      goal: { atMost: 300 },
      note: `median of ${rounds} rounds; the reference reads turn_usage without the roll-up`,
    })),
  );
} finally {
  await database.close();
  await benchDb.drop();
}

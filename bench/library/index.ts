import { sql } from 'drizzle-orm';
import { DB_STATEMENT_TIMEOUT_MS, connectDatabase } from '../../server/db/connect';
import { recountTerms, searchPassages } from '../../server/library/library.repo';
import { benchDatabase } from '../lib/postgres';
import { count } from '../lib/quick';
import { report as reportFigures } from '../lib/report';
import { median } from '../lib/stats';

/**
 * A library search (GET /api/library/search: searchPassages) over 100,000 passages of one
 * company's module, on PostgreSQL. Goal (docs/decisions/0067-library-search.md): under 100 ms.
 * The reference, measured in the same run, is a count of the company's searchable passages
 * (what any query of that scope at least costs without the index).
 *
 * Passages are generated in SQL from a policy vocabulary (60 words each), spread over 200
 * documents in seven languages' configurations like real libraries (most English), plus a second
 * company with as many passages, so the scope filter has work to do. Uses its own database.
 *
 *   BENCH_DATABASE_URL (or DATABASE_URL), default postgres://postgres@127.0.0.1:5432/postgres
 *   BENCH_LIBRARY_PASSAGES (default 100,000)
 */
const PASSAGES = Number(process.env.BENCH_LIBRARY_PASSAGES ?? 100_000);
const rounds = count(9, 3);
const SLICE = 5_000;
const benchDb = await benchDatabase('library');
const database = await connectDatabase({ databaseUrl: benchDb.url });
const { db } = database;
const rowsOf = async <T>(query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const WORDS = `employee employees leave annual holiday salary pay band grade bonus overtime manager
approval travel expense receipt hotel flight policy procedure gift hospitality bribery supplier
contract retention record data privacy personal breach incident report security password access
device laptop email phone remote office hybrid working hours sickness absence parental maternity
paternity pension benefit car allowance training review appraisal promotion conflict interest
whistleblowing complaint grievance disciplinary dismissal notice probation recruitment interview
offer reference background check diversity inclusion equal harassment bullying health safety fire
risk audit committee board director shareholder compliance regulation law fine penalty customer
brand logo colour font tone voice claim approved banned word term style guide image photo caption
social media press release spokesperson crisis channel campaign budget forecast invoice payment
vendor procurement tender quote purchase order threshold signature delegated authority limit`
  .split(/\s+/)
  .filter(Boolean);

try {
  const started = Date.now();
  const companies = await rowsOf<{ id: number }>(
    sql`insert into companies (name) values ('Library Bench'), ('Library Bench Other') returning id`,
  );
  const words = sql.raw(`array[${WORDS.map((w) => `'${w}'`).join(',')}]`);
  const configs = sql.raw(
    `array['library_english','library_english','library_english','library_english','library_german','library_french','library_spanish','library_italian','library_dutch','library_portuguese']`,
  );
  for (const { id: companyId } of companies) {
    await db.execute(sql`
      insert into library_documents (company_id, module, file_name, language, current_version)
      select ${companyId}, 'governance', 'Policy ' || g || '.md', 'english', 1
      from generate_series(1, 200) g`);
    await db.execute(sql`
      insert into library_versions (document_id, company_id, version, mime_type, size, data, passages)
      select id, ${companyId}, 1, 'text/markdown', 1000, '\\x00'::bytea, ${PASSAGES / 200}
      from library_documents where company_id = ${companyId}`);
    // In slices: each statement stays within the connection's statement timeout.
    for (let from = 0; from < PASSAGES; from += SLICE) {
      await db.execute(sql`
      with docs as (
        select d.id as document_id, v.id as version_id, row_number() over (order by d.id) - 1 as n
        from library_documents d join library_versions v on v.document_id = d.id
        where d.company_id = ${companyId}
      ), gen as (
        select g, (select string_agg((${words})[1 + ((g * 7919 + k * 104729 + k * k * 31) % ${WORDS.length})], ' ')
                   from generate_series(1, 60) k) as body,
               (${configs})[1 + g % 10] as config
        from generate_series(${from}::int, ${Math.min(PASSAGES, from + SLICE) - 1}::int) g
      )
      insert into library_passages (company_id, module, document_id, version_id, ordinal,
        heading_path, clause, page, text, language, searchable, search_vector)
      select ${companyId}, 'governance', docs.document_id, docs.version_id, g / 200 + 1,
        'Section ' || (g % 17), null, null, body, config, true,
        to_tsvector(config::regconfig, body)
      from gen join docs on docs.n = g % 200`);
    }
  }
  // The lexeme counts an upload keeps (library_terms), here counted once after the bulk insert.
  for (const { id: companyId } of companies) await recountTerms(db, companyId, 'governance');
  await db.execute(sql`analyze`);
  console.log(
    `library: ${PASSAGES} passages per company (two companies) generated in ${Date.now() - started} ms`,
  );
  const companyId = companies[0]!.id;
  const QUESTIONS = [
    'How many days of annual leave do employees get?',
    'Which gifts and hospitality must be reported?',
    'Who approves travel expenses over the limit?',
    'What is the retention period for personal data records?',
    'Which words are banned in brand copy?',
    'What is the notice period during probation?',
  ];
  let timedOut = 0;
  // A search past the statement timeout fails in the app (500): counted at the timeout.
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    try {
      await fn();
    } catch (err) {
      if (!/statement timeout/.test(String((err as Error).cause ?? err))) throw err;
      timedOut++;
      return DB_STATEMENT_TIMEOUT_MS;
    }
    return performance.now() - t0;
  };
  // One round first, unmeasured: the caches warm as they would on a running server.
  for (const q of QUESTIONS) await time(() => searchPassages(db, companyId, 'governance', q, 10));
  timedOut = 0;
  const search: number[] = [];
  let short = 0;
  const scan: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    for (const q of QUESTIONS)
      search.push(
        await time(async () => {
          if ((await searchPassages(db, companyId, 'governance', q, 10)).length < 10) short++;
        }),
      );
    scan.push(
      await time(() =>
        db.execute(
          sql`select count(*) from library_passages where company_id = ${companyId} and module = 'governance' and searchable`,
        ),
      ),
    );
  }
  const sorted = [...search].sort((a, b) => a - b);
  await reportFigures('library', [
    {
      name: `GET /api/library/search over ${PASSAGES.toLocaleString('en-US')} passages of a module, top 10, PostgreSQL`,
      value: median(search),
      unit: 'ms',
      reference: { name: "a count of the module's passages", value: median(scan) },
      goal: { atMost: 100 },
      note: `median of ${search.length} searches (${QUESTIONS.length} questions × ${rounds} rounds); slowest ${sorted[sorted.length - 1]!.toFixed(1)} ms; ${timedOut} past the ${DB_STATEMENT_TIMEOUT_MS} ms statement timeout; ${short} with fewer than 10 passages`,
    },
  ]);
} finally {
  await database.close();
  await benchDb.drop();
}

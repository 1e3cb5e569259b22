import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { startOpenAiFixture, type OpenAiFixture } from '../../test-support/openai-fixture';
import { loadConfig } from '../config';
import type { Database } from '../db/connect';
import { auditLog, starters, users } from '../db/schema';
import { seedDatabase } from '../seed/seed';
import { runAdmin, USAGE, type AdminIo } from './commands';
import { addCompany, findCompany, listCompanies, updateCompany } from './companies';
import {
  addStarter,
  editStarter,
  importStarters,
  listStartersFor,
  parseStarterFile,
} from './starters';

// The operator commands, called directly against the test database. Every name is unique to
// this run: on PostgreSQL the database is shared with the other test files.
const tag = () => randomBytes(3).toString('hex');

describe('admin command', () => {
  let database: Database;
  let tmp: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDatabase(database.db);
    tmp = mkdtempSync(path.join(tmpdir(), 'atrium-admin-'));
  });
  afterAll(async () => {
    await database?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs a command line and captures what it printed. */
  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = {
      db: database.db,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    };
    const code = await runAdmin(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  describe('companies', () => {
    it('lists the seeded companies with their domains and models', async () => {
      const list = await listCompanies(database.db);
      expect(list.map((c) => c.name)).toEqual(
        expect.arrayContaining(['Contoso', 'Northwind Traders']),
      );
      const r = await run('companies', 'list');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(
        /Contoso\n {2}domains: contoso\.com\n {2}models: brand-hub=builtin governance=builtin talent-intelligence=builtin/,
      );
    });

    it('adds a company with lower-cased, de-duplicated domains and per-module models', async () => {
      const name = `Acme ${tag()}`;
      const domain = `acme-${tag()}.com`;
      const r = await run(
        'companies',
        'add',
        '--name',
        name,
        '--domains',
        `${domain.toUpperCase()}, ${domain}`,
        '--governance-model',
        'openai:gpt-4.1-mini',
        '--talent-intelligence-model',
        'openai:llama3.1:8b',
      );
      expect(r.code).toBe(0);
      expect(r.out).toContain(`Added company:`);
      expect(r.err).toBe('');
      const row = await findCompany(database.db, name);
      expect(row).toMatchObject({
        emailDomains: [domain],
        brandHubModel: 'builtin',
        governanceModel: 'openai:gpt-4.1-mini',
        talentIntelligenceModel: 'openai:llama3.1:8b',
      });
    });

    it.each([
      [
        ['--name', 'X', '--governance-model', 'gpt-4'],
        'governanceModel: Model must be "builtin" or "<provider>:<model>"',
      ],
      [['--name', 'X', '--brand-hub-model', 'openai:'], 'brandHubModel: Model must be'],
      [['--name', 'X', '--domains', 'not a domain'], 'Domains must look like example.com'],
      [['--name', '   '], 'Name is required'],
    ])('refuses bad values %j with a clear error and exit code 1', async (args, message) => {
      const before = (await listCompanies(database.db)).length;
      const r = await run('companies', 'add', ...args);
      expect(r.code).toBe(1);
      expect(r.err).toContain(message);
      expect((await listCompanies(database.db)).length).toBe(before);
    });

    it('refuses a taken name (any case); a shared domain is accepted with a note', async () => {
      await expect(addCompany(database.db, { name: 'contoso' })).rejects.toThrow(
        'A company named "Contoso" already exists',
      );
      // A group's companies share a domain: its people choose between them in Settings.
      const group = `Group ${tag()}`;
      const domain = `group-${tag()}.com`;
      await addCompany(database.db, { name: group, emailDomains: [domain] });
      const name = `${group} Labs`;
      const r = await run('companies', 'add', '--name', name, '--domains', domain);
      expect(r.code).toBe(0);
      expect(r.err).toBe(
        `note: ${domain} is shared with ${group}; its people choose between them in Settings.`,
      );
      expect((await findCompany(database.db, name)).emailDomains).toEqual([domain]);
    });

    it('updates by id or by name, case-insensitively, keeping what is not mentioned', async () => {
      const name = `Globex ${tag()}`;
      const c = await addCompany(database.db, { name, emailDomains: [`globex-${tag()}.com`] });
      const r = await run(
        'companies',
        'update',
        name.toLowerCase(),
        '--brand-hub-model',
        'openai:gpt-4o',
      );
      expect(r.code).toBe(0);
      const row = await findCompany(database.db, String(c.id));
      expect(row).toMatchObject({
        brandHubModel: 'openai:gpt-4o',
        emailDomains: c.emailDomains,
        name,
      });
      expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(c.updatedAt.getTime());

      const renamed = await updateCompany(database.db, String(c.id), {
        name: `${name} Inc`,
        emailDomains: [],
      });
      expect(renamed).toMatchObject({ name: `${name} Inc`, emailDomains: [] });
    });

    it('reports an unknown company and an update with nothing to change', async () => {
      expect((await run('companies', 'update', 'No Such Co', '--name', 'x')).err).toBe(
        'error: No company with id or name "No Such Co"',
      );
      const r = await run('companies', 'update', 'Contoso');
      expect(r.code).toBe(1);
      expect(r.err).toBe('error: Give at least one field to change');
    });
  });

  describe('roles', () => {
    /** A user row as sign-up leaves it (the API path is covered in server/admin/admin-api.test.ts). */
    async function user(email: string, companyId: number | null) {
      const [u] = await database.db
        .insert(users)
        .values({ email, password: 'x', firstName: 'Op', lastName: 'Erator', companyId })
        .returning();
      return u!;
    }

    it('operators add makes a user an operator; remove makes them a member again', async () => {
      const email = `op-${tag()}@northwind.com`;
      await user(email, null);
      const r = await run('operators', 'add', email.toUpperCase());
      expect(r).toMatchObject({ code: 0, out: `${email} is now an operator.` });
      const [row] = await database.db.select().from(users).where(eq(users.email, email));
      expect(row!.role).toBe('operator');
      expect((await run('operators', 'remove', email)).out).toBe(
        `${email} is no longer an operator.`,
      );
      expect((await run('operators', 'add', `nobody-${tag()}@northwind.com`)).err).toMatch(
        /^error: No user with the address nobody-.*: they sign up first$/,
      );
      expect((await run('operators', 'add')).code).toBe(2);
    });

    it('companies admins add makes an admin of a company owning the address, and only then', async () => {
      const domain = `admins-${tag()}.com`;
      const company = await addCompany(database.db, {
        name: `Admins ${tag()}`,
        emailDomains: [domain],
      });
      const email = `boss@${domain}`;
      const u = await user(email, null);
      const r = await run('companies', 'admins', 'add', company.name, email);
      expect(r).toMatchObject({ code: 0, out: `${email} is now an admin of ${company.name}.` });
      const [row] = await database.db.select().from(users).where(eq(users.id, u.id));
      expect(row).toMatchObject({ role: 'admin', companyId: company.id });

      const outsider = `x-${tag()}@northwind.com`;
      await user(outsider, null);
      const refused = await run('companies', 'admins', 'add', company.name, outsider);
      expect(refused).toMatchObject({
        code: 1,
        err: `error: ${outsider} is not on a domain ${company.name} owns`,
      });
      expect((await run('companies', 'admins', 'remove', company.name, email)).out).toBe(
        `${email} is no longer an admin of ${company.name}.`,
      );
      const [after] = await database.db.select().from(users).where(eq(users.id, u.id));
      expect(after!.role).toBe('member');
      // Both changes are in the company's own log, made by the command.
      const log = await database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.companyId, company.id))
        .orderBy(asc(auditLog.id));
      expect(log.map((e) => [e.action, e.actorEmail, e.target, e.detail])).toEqual([
        ['role_changed', 'admin command', email, 'member -> admin'],
        ['role_changed', 'admin command', email, 'admin -> member'],
      ]);
    });
  });

  describe('starters', () => {
    it('adds, edits and removes a starter', async () => {
      const name = `Exit interview themes ${tag()}`;
      const s = await addStarter(database.db, {
        module: 'talent-intelligence',
        taskType: 'Attrition Analysis',
        name,
        description: 'grouping exit interview comments into themes: attach the comments as CSV',
      });
      expect(
        (await listStartersFor(database.db, 'talent-intelligence')).map((x) => x.id),
      ).toContain(s.id);

      const r = await run('starters', 'edit', String(s.id), '--task-type', 'Skills Gap');
      expect(r.code).toBe(0);
      expect(r.out).toContain(`[talent-intelligence] Skills Gap / ${name}`);

      expect((await run('starters', 'remove', String(s.id))).out).toBe(
        `Removed starter #${s.id} [talent-intelligence] ${name}`,
      );
      expect(await database.db.select().from(starters).where(eq(starters.id, s.id))).toEqual([]);
      expect((await run('starters', 'remove', String(s.id))).err).toBe(
        `error: No starter with id ${s.id}`,
      );
    });

    it('refuses a second starter of the same name in a module, and bad fields', async () => {
      const r = await run(
        'starters',
        'add',
        '--module',
        'governance',
        '--task-type',
        'Policy Review',
        '--name',
        'policy gap check',
        '--description',
        'again',
      );
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /^error: A starter named "policy gap check" already exists in governance \(id \d+\)$/,
      );

      const bad = await run(
        'starters',
        'add',
        '--module',
        'marketing',
        '--name',
        'x',
        '--description',
        'y',
      );
      expect(bad.code).toBe(1);
      expect(bad.err).toContain(
        'module: Module must be one of brand-hub, governance, talent-intelligence',
      );
      expect(bad.err).toContain('taskType: Task type is required');

      await expect(editStarter(database.db, 'abc', { name: 'x' })).rejects.toThrow(
        'A starter id is a number (got "abc")',
      );
    });

    it('lists starters of one module, and refuses an unknown module', async () => {
      const r = await run('starters', 'list', '--module', 'brand-hub', '--json');
      const list = JSON.parse(r.out) as { module: string }[];
      expect(list.length).toBeGreaterThanOrEqual(12);
      expect(new Set(list.map((s) => s.module))).toEqual(new Set(['brand-hub']));
      expect((await run('starters', 'list', '--module', 'brand-activation')).code).toBe(1);
    });

    it('imports JSON: adds new starters, updates existing ones by module and name', async () => {
      const t = tag();
      const rows = [
        {
          module: 'brand-hub',
          taskType: 'Campaign Brief',
          name: `Launch ${t}`,
          description: 'a launch brief',
        },
        {
          module: 'governance',
          taskType: 'Board Pack',
          name: `Pack ${t}`,
          description: 'a board pack',
        },
      ];
      expect(await importStarters(database.db, JSON.stringify(rows), 'json')).toEqual({
        created: 2,
        updated: 0,
        unchanged: 0,
      });
      rows[1]!.description = 'a shorter board pack';
      expect(await importStarters(database.db, JSON.stringify(rows), 'json')).toEqual({
        created: 0,
        updated: 1,
        unchanged: 1,
      });
      const [pack] = await database.db
        .select()
        .from(starters)
        .where(eq(starters.name, `Pack ${t}`));
      expect(pack!.description).toBe('a shorter board pack');
    });

    it('imports CSV through the command, with quoted cells spanning lines', async () => {
      const t = tag();
      const file = path.join(tmp, `starters-${t}.csv`);
      writeFileSync(
        file,
        `Module,Task Type,Name,Description\n` +
          `talent-intelligence,Skills Gap,"Skills, ${t}","mapping skills:\nattach a matrix"\n\n` +
          `governance,Risk Register,Risks ${t},reviewing risks\n`,
      );
      const dry = await run('starters', 'import', file, '--dry-run');
      expect(dry.out).toBe('Dry run, nothing written: would add 2, update 0, unchanged 0.');
      expect(
        await database.db
          .select()
          .from(starters)
          .where(eq(starters.name, `Risks ${t}`)),
      ).toEqual([]);

      const r = await run('starters', 'import', file);
      expect(r).toMatchObject({ code: 0, out: 'Imported: added 2, updated 0, unchanged 0.' });
      const [s] = await database.db
        .select()
        .from(starters)
        .where(eq(starters.name, `Skills, ${t}`));
      expect(s).toMatchObject({
        module: 'talent-intelligence',
        description: 'mapping skills:\nattach a matrix',
      });
    });

    it('reports every bad CSV row with its line number and imports nothing', async () => {
      const t = tag();
      const csv =
        'module,taskType,name,description\n' +
        `governance,Policy Review,"Fine ${t}","ok\nspanning"\n` +
        `marketing,Policy Review,Bad module ${t},x\n` +
        `governance,,No type ${t},x\n` +
        `governance,Policy Review,"Fine ${t}",again\n`;
      const err = (() => {
        try {
          parseStarterFile(csv, 'csv');
          return '';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(err.split('\n')).toEqual([
        'Nothing was imported: 3 problems in the file',
        '  line 4: module: Module must be one of brand-hub, governance, talent-intelligence',
        '  line 5: taskType: Task type is required',
        `  line 6: "Fine ${t}" in governance repeats line 2`,
      ]);
      const file = path.join(tmp, `bad-${t}.csv`);
      writeFileSync(file, csv);
      const r = await run('starters', 'import', file);
      expect(r.code).toBe(1);
      expect(r.err).toContain('line 4: module:');
      expect(
        await database.db
          .select()
          .from(starters)
          .where(eq(starters.name, `Fine ${t}`)),
      ).toEqual([]);
    });

    it.each([
      [
        'a CSV without the needed columns',
        'csv',
        'module,name\ngovernance,x\n',
        'line 1: the CSV header must name the columns module, taskType, name, description (missing taskType, description)',
      ],
      ['JSON that does not parse', 'json', '[{', 'The file is not valid JSON'],
      ['JSON that is not a list', 'json', '{"module":"governance"}', 'expected array'],
      ['an empty JSON list', 'json', '[]', 'The file holds no starters'],
      [
        'a JSON item with a bad field',
        'json',
        '[{"module":"governance","taskType":"T","name":"N"}]',
        'item 1: description: Description is required',
      ],
    ] as const)('refuses %s', async (_label, format, text, message) => {
      await expect(importStarters(database.db, text, format)).rejects.toThrow(message);
    });

    it('refuses a file of another kind, and a missing file', async () => {
      expect((await run('starters', 'import', 'starters.xlsx')).err).toBe(
        'error: Cannot tell the format of starters.xlsx: use a .json or .csv file',
      );
      expect((await run('starters', 'import', path.join(tmp, 'missing.json'))).err).toMatch(
        /^error: Cannot read .*missing\.json: ENOENT$/,
      );
    });
  });

  describe('model providers', () => {
    let upstream: OpenAiFixture;
    beforeAll(async () => {
      upstream = await startOpenAiFixture();
    });
    afterAll(() => upstream?.close());

    /** A configuration with one named provider at the fixture (and no OPENAI_BASE_URL). */
    const modelsConfig = (name: string) =>
      loadConfig({
        SESSION_SECRET: 'x'.repeat(32),
        MODEL_PROVIDERS: `${name}=${upstream.baseUrl},CHECK_KEY`,
        CHECK_KEY: 'sk-check-secret',
      });

    async function runWith(models: ReturnType<typeof modelsConfig>, ...argv: string[]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, {
        db: database.db,
        models,
        out: (t) => out.push(t),
        err: (t) => err.push(t),
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    it('lists the providers with their URL and key variable, never the key', async () => {
      const name = `lab-${tag()}`;
      const r = await runWith(modelsConfig(name), 'providers', 'list');
      expect(r.code).toBe(0);
      expect(r.out).toContain('builtin  the offline rule-based analyst');
      expect(r.out).toContain(
        'openai  not set (OPENAI_BASE_URL)  key from OPENAI_API_KEY (not set)',
      );
      expect(r.out).toContain(
        `${name}  ${upstream.baseUrl}  key from CHECK_KEY (set)  models: ${name}:<model>`,
      );
      expect(r.out).not.toContain('sk-check-secret');
    });

    it('refuses a company model whose provider is not configured', async () => {
      const name = `lab-${tag()}`;
      const r = await runWith(
        modelsConfig(name),
        'companies',
        'add',
        '--name',
        `Lab ${tag()}`,
        '--governance-model',
        'azure-nowhere:gpt-4o',
      );
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `error: Unknown model provider "azure-nowhere" in "azure-nowhere:gpt-4o": use builtin or openai:<model> or ${name}:<model>.`,
      );
    });

    it('models check sends one tiny request per model in use and prints what answered', async () => {
      const name = `chk-${tag()}`;
      const config = modelsConfig(name);
      const added = await runWith(
        config,
        'companies',
        'add',
        '--name',
        `Checked ${tag()}`,
        '--brand-hub-model',
        `${name}:good-model`,
        '--governance-model',
        `${name}:bad-model`,
      );
      expect(added.code).toBe(0);
      // Sorted by model: bad-model asks first.
      upstream.enqueue(
        {
          kind: 'status',
          status: 404,
          body: { error: { message: 'model "bad-model" not found' } },
        },
        {
          kind: 'status',
          status: 200,
          body: {
            id: 'chatcmpl-check',
            object: 'chat.completion',
            created: 1,
            model: 'good-model',
            choices: [
              { index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' },
            ],
          },
        },
      );
      const r = await runWith(config, 'models', 'check', '--timeout', '10');
      expect(r.code).toBe(1);
      expect(r.out).toMatch(
        new RegExp(
          `FAIL {2}${name}:bad-model {2}The model server answered 404 \\(check the company's model "bad-model" and the base URL of "${name}" in MODEL_PROVIDERS\\): model "bad-model" not found \\(\\d+ ms\\)`,
        ),
      );
      expect(r.out).toMatch(new RegExp(`ok {4}${name}:good-model {2}answered "OK" \\(\\d+ ms\\)`));
      expect(upstream.requests.map((q) => q.body.model)).toEqual(['bad-model', 'good-model']);
      expect(upstream.requests[1]!.headers.authorization).toBe('Bearer sk-check-secret');
      expect(r.out).not.toContain('sk-check-secret');
    });
  });

  describe('usage', () => {
    it('prints the usage for help (0), for nothing (2) and for bad commands or options (2)', async () => {
      expect(await run('help')).toMatchObject({ code: 0, out: USAGE });
      expect((await run()).code).toBe(2);
      const unknown = await run('users', 'list');
      expect(unknown.code).toBe(2);
      expect(unknown.err).toContain('error: Unknown command "users"');
      expect(unknown.err).toContain('Usage: npm run admin -- <command> [options]');
      const badOption = await run('companies', 'add', '--name', 'X', '--colour', 'red');
      expect(badOption.code).toBe(2);
      expect(badOption.err).toContain("Unknown option '--colour'");
      expect((await run('starters', 'remove')).err).toContain('error: Give exactly one starter id');
    });
  });
});

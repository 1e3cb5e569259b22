import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test-support/app';
import { runAdmin, type AdminIo } from '../admin/commands';
import { addCompany } from '../admin/companies';
import { closeToolPool } from '../analyst/tools/runner';
import type { Database } from '../db/connect';
import { seedDatabase } from '../seed/seed';
import { listDocuments, searchPassages } from './library.repo';

// `npm run admin -- library add|list`: what automation puts in a company's library.

const tag = () => randomBytes(3).toString('hex');

describe('admin command: library', () => {
  let database: Database;
  let tmp: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    await seedDatabase(database.db);
    tmp = mkdtempSync(path.join(tmpdir(), 'atrium-library-'));
  });
  afterAll(async () => {
    await database?.close();
    await closeToolPool();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: AdminIo = { db: database.db, out: (t) => out.push(t), err: (t) => err.push(t) };
    const code = await runAdmin(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('adds a file, adds a version of the same name, lists them', { timeout: 120_000 }, async () => {
    const company = await addCompany(database.db, { name: `Library Co ${tag()}` });
    const file = path.join(tmp, 'Pay bands.md');
    writeFileSync(file, '# Pay bands\n\n## Band C\nBand C pays 52,000 to 61,000 EUR a year.\n');
    const add = () => run('library', 'add', company.name, '--module', 'talent-intelligence', file);
    const added = await add();
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/^Added: #\d+ Pay bands\.md v1 \(1 passages, english\)/);

    writeFileSync(file, '# Pay bands\n\n## Band C\nBand C pays 54,000 to 63,000 EUR a year.\n');
    const again = await add();
    expect(again.out).toMatch(/^New version: #\d+ Pay bands\.md v2/);

    const docs = await listDocuments(database.db, company.id, 'talent-intelligence');
    expect(docs.map((d) => [d.fileName, d.version, d.addedBy])).toEqual([
      ['Pay bands.md', 2, null],
    ]);
    const hits = await searchPassages(database.db, company.id, 'talent-intelligence', 'band C', 5);
    expect(hits.map((h) => h.text)).toEqual(['Band C\nBand C pays 54,000 to 63,000 EUR a year.']);

    const list = await run('library', 'list', company.name);
    expect(list.code).toBe(0);
    expect(list.out).toContain('[talent-intelligence] Pay bands.md v2');
    expect(list.out).toContain('by the admin command');
  });

  it('says what is wrong: usage, module, missing file, unknown company', async () => {
    const usage = await run('library', 'add', 'Contoso', 'x.md');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('Use: library add "<company>" --module <module> <file>');
    const mod = await run('library', 'add', 'Contoso', '--module', 'sales', 'x.md');
    expect(mod.code).toBe(1);
    expect(mod.err).toContain('--module must be one of brand-hub, governance, talent-intelligence');
    const missing = await run(
      'library',
      'add',
      'Contoso',
      '--module',
      'governance',
      path.join(tmp, 'nope.md'),
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('No file at');
    const unknown = await run('library', 'list', `No such company ${tag()}`);
    expect(unknown.code).toBe(1);
  });
});

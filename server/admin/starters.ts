import { and, eq, isNull, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { ModuleKey } from '@contract/modules';
import {
  StarterImportJson,
  StarterInput,
  StarterPatch,
  STARTER_IMPORT_MAX,
} from '@contract/starters';
import type { Db, DbOrTx } from '../db/connect';
import { starters, type Starter } from '../db/schema';
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { parse } from '../lib/validate';
import { listAllStarters, listStartersByModule } from '../workspace/starters.repo';

// Operator commands on starter templates: list, add, edit, remove and import (JSON or CSV).

export async function listStartersFor(db: DbOrTx, module?: ModuleKey): Promise<Starter[]> {
  return module ? listStartersByModule(db, module) : listAllStarters(db);
}

function parseId(ref: string): number {
  if (!/^\d{1,9}$/.test(ref.trim()))
    throw new ValidationError(`A starter id is a number (got "${ref}")`);
  return Number(ref.trim());
}

async function findStarter(db: DbOrTx, ref: string): Promise<Starter> {
  const id = parseId(ref);
  const [row] = await db.select().from(starters).where(eq(starters.id, id));
  if (!row) throw new NotFoundError(`No starter with id ${id}`);
  return row;
}

/** The starters of a scope: the global library (companyId null) or one company's own. */
export const inStarterScope = (scope: { companyId: number | null }) =>
  scope.companyId === null ? isNull(starters.companyId) : eq(starters.companyId, scope.companyId);

/** One name per module within a scope: the global library (companyId null) or a company's own. */
export async function assertStarterNameFree(
  db: DbOrTx,
  scope: { companyId: number | null },
  module: string,
  name: string,
  exceptId: number | null,
) {
  const [row] = await db
    .select({ id: starters.id })
    .from(starters)
    .where(
      and(
        inStarterScope(scope),
        eq(starters.module, module),
        sql`lower(${starters.name}) = lower(${name})`,
      ),
    );
  if (row && row.id !== exceptId) {
    throw new ConflictError(`A starter named "${name}" already exists in ${module} (id ${row.id})`);
  }
}

export async function addStarter(db: Db, input: Partial<StarterInput>): Promise<Starter> {
  const values = parse(StarterInput, input);
  return db.transaction(async (tx) => {
    await assertStarterNameFree(tx, { companyId: null }, values.module, values.name, null);
    const [row] = await tx.insert(starters).values(values).returning();
    return row!;
  });
}

export async function editStarter(db: Db, ref: string, patch: StarterPatch): Promise<Starter> {
  const values = parse(StarterPatch, patch);
  return db.transaction(async (tx) => {
    const current = await findStarter(tx, ref);
    const next = { ...current, ...values };
    if (values.name !== undefined || values.module !== undefined) {
      await assertStarterNameFree(tx, current, next.module, next.name, current.id);
    }
    const [row] = await tx
      .update(starters)
      .set(values)
      .where(eq(starters.id, current.id))
      .returning();
    return row!;
  });
}

export async function removeStarter(db: Db, ref: string): Promise<Starter> {
  const current = await findStarter(db, ref);
  await db.delete(starters).where(eq(starters.id, current.id));
  return current;
}

export type ImportFormat = 'json' | 'csv';

/** One row of an import file with where it came from, for error messages. */
interface SourcedRow {
  /** "line 4" (CSV) or "item 3" (JSON). */
  where: string;
  value: unknown;
}

/** Errors listed at most, so a wholly wrong file gives a readable answer. */
const MAX_LISTED_ERRORS = 20;

export function formatFromFileName(file: string): ImportFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  throw new ValidationError(`Cannot tell the format of ${file}: use a .json or .csv file`);
}

function jsonRows(text: string): SourcedRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`The file is not valid JSON: ${(err as Error).message}`);
  }
  const list = parse(StarterImportJson, data);
  return list.map((value, i) => ({ where: `item ${i + 1}`, value }));
}

/** Accepted CSV headers (case and spacing ignored) for each field. */
const CSV_HEADERS: Record<string, keyof StarterInput> = {
  module: 'module',
  tasktype: 'taskType',
  task_type: 'taskType',
  'task type': 'taskType',
  name: 'name',
  description: 'description',
};

function csvRows(text: string): SourcedRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const rows: { cells: string[]; line: number }[] = [];
  let start = 0;
  let parseError: string | null = null;
  // Step through rows to know each row's first line: quoted cells may span several lines.
  Papa.parse<string[]>(body, {
    header: false,
    skipEmptyLines: 'greedy',
    step: (result, parser) => {
      while (start < body.length && (body[start] === '\n' || body[start] === '\r')) start += 1;
      const line = body.slice(0, start).split('\n').length;
      if (result.errors.length > 0) {
        parseError = `line ${line}: ${result.errors[0]!.message}`;
        parser.abort();
        return;
      }
      rows.push({ cells: result.data, line });
      start = result.meta.cursor;
      if (rows.length > STARTER_IMPORT_MAX + 1) parser.abort();
    },
  });
  if (parseError) throw new ValidationError(`The CSV file cannot be read: ${parseError}`);
  const [header, ...data] = rows;
  if (!header) throw new ValidationError('The CSV file is empty');
  const fields = header.cells.map((h) => CSV_HEADERS[h.trim().toLowerCase()]);
  const missing = (['module', 'taskType', 'name', 'description'] as const).filter(
    (f) => !fields.includes(f),
  );
  if (missing.length > 0) {
    throw new ValidationError(
      `line 1: the CSV header must name the columns module, taskType, name, description (missing ${missing.join(', ')})`,
    );
  }
  if (data.length === 0) throw new ValidationError('The file holds no starters');
  if (data.length > STARTER_IMPORT_MAX) {
    throw new ValidationError(`At most ${STARTER_IMPORT_MAX} starters per import`);
  }
  return data.map(({ cells, line }) => {
    const value: Record<string, string> = {};
    fields.forEach((field, i) => {
      if (field && cells[i] !== undefined) value[field] = cells[i];
    });
    return { where: `line ${line}`, value };
  });
}

/** Validates every row (all errors, with their line or item), and rows repeated in the file. */
export function parseStarterFile(text: string, format: ImportFormat): StarterInput[] {
  const rows = format === 'json' ? jsonRows(text) : csvRows(text);
  const errors: string[] = [];
  const valid: StarterInput[] = [];
  const seen = new Map<string, string>();
  for (const row of rows) {
    const result = StarterInput.safeParse(row.value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = issue.path.join('.');
        errors.push(`${row.where}: ${field ? `${field}: ` : ''}${issue.message}`);
      }
      continue;
    }
    const key = `${result.data.module}\u0000${result.data.name.toLowerCase()}`;
    const first = seen.get(key);
    if (first) {
      errors.push(`${row.where}: "${result.data.name}" in ${result.data.module} repeats ${first}`);
      continue;
    }
    seen.set(key, row.where);
    valid.push(result.data);
  }
  if (errors.length > 0) {
    const listed = errors.slice(0, MAX_LISTED_ERRORS);
    const more = errors.length - listed.length;
    throw new ValidationError(
      [
        `Nothing was imported: ${errors.length} problem${errors.length === 1 ? '' : 's'} in the file`,
        ...listed.map((e) => `  ${e}`),
        ...(more > 0 ? [`  ... and ${more} more`] : []),
      ].join('\n'),
    );
  }
  return valid;
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
}

/**
 * Imports starters: a row whose module and name exist updates that starter's task type and
 * description, any other row is added. All or nothing: one bad row imports none.
 */
export async function importStarters(
  db: Db,
  text: string,
  format: ImportFormat,
  opts: { dryRun?: boolean } = {},
): Promise<ImportResult> {
  const rows = parseStarterFile(text, format);
  const result: ImportResult = { created: 0, updated: 0, unchanged: 0 };
  const apply = async (tx: DbOrTx) => {
    for (const row of rows) {
      const [existing] = await tx
        .select()
        .from(starters)
        .where(
          and(
            isNull(starters.companyId),
            eq(starters.module, row.module),
            sql`lower(${starters.name}) = lower(${row.name})`,
          ),
        );
      if (!existing) {
        if (!opts.dryRun) await tx.insert(starters).values(row);
        result.created += 1;
      } else if (existing.taskType !== row.taskType || existing.description !== row.description) {
        if (!opts.dryRun) {
          await tx
            .update(starters)
            .set({ taskType: row.taskType, description: row.description })
            .where(eq(starters.id, existing.id));
        }
        result.updated += 1;
      } else {
        result.unchanged += 1;
      }
    }
  };
  await db.transaction(apply);
  return result;
}

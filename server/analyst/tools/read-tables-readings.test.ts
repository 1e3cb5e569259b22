import { afterAll, describe, expect, it } from 'vitest';
import type { TableReading } from '@contract/reading';
import { profileTableTool, readTablesTool } from './common-tools';
import { aiToolSet, closeToolPool } from './runner';

// A real model gets the reading from read_tables and may hand back a corrected one (ADR 0050):
// the turn's later calls read the table that way, in the worker pool as every tool call runs.

afterAll(() => closeToolPool());

const file = {
  fileName: 'staff.csv',
  mimeType: 'text/csv',
  data: Buffer.from(
    ['Id,Kst,Pay', 'A1,Sales,50000', 'A2,Sales,52000', 'A3,Legal,61000'].join('\n'),
  ),
};
type Exec = (input: unknown, options: unknown) => Promise<unknown>;

describe('read_tables with a corrected reading', () => {
  it('returns the reading, takes a corrected one, and the turn keeps it', async () => {
    const tools = aiToolSet([readTablesTool, profileTableTool], [file]);
    const call = (name: string, input: unknown) =>
      (tools[name]!.execute as unknown as Exec)(input, {});
    const first = (await call('read_tables', {})) as { readings: TableReading[] };
    const guessed = first.readings[0]!;
    expect(guessed.columns.find((c) => c.name === 'Kst')?.role).not.toBe('department');
    const corrected: TableReading = {
      ...guessed,
      columns: guessed.columns.map((c) => (c.name === 'Kst' ? { ...c, role: 'department' } : c)),
    };
    const second = (await call('read_tables', { readings: [corrected] })) as {
      readings: TableReading[];
      how_i_read: string;
    };
    expect(second.readings[0]!.columns).toEqual(corrected.columns);
    expect(second.how_i_read).toContain('Read with the reading given');
    // A later call of the same turn reads Kst as the department.
    const profile = (await call('profile_table', {})) as {
      columns: Array<{ name: string; role: string | null }>;
    };
    expect(profile.columns.find((c) => c.name === 'Kst')?.role).toBe('department');
    // A corrected reading that does not parse is an error the model reads.
    const bad = (await call('read_tables', { readings: [{ ...corrected, shape: 'rows' }] })) as {
      error?: string;
    };
    expect(bad.error).toMatch(/Invalid input for read_tables/);
  });
});

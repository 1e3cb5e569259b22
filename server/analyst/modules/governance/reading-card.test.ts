import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { TableReading } from '@contract/reading';
import { StructuredResponse } from '@contract/structured-response';
import { builtinAgent } from '../../providers/builtin';
import { closeToolPool } from '../../tools/runner';
import { attachment, runTurn, texts, userMessage } from '../../../../test-support/analyst/turns';

/**
 * The "Check how I read this file" card of a Governance register review lists the columns the
 * review itself says it used, and no workforce role: a risk register's "Risk ID" is not an
 * employee id, its "Owner" not a name (ADR 0103).
 */

afterAll(closeToolPool);

const dir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../test-support/fixtures/documents',
);

async function review(message: string, fileName: string, data: Buffer | string) {
  const turn = await runTurn(builtinAgent(), 'governance', [
    userMessage(message, [attachment(fileName, data)]),
  ]);
  const report = StructuredResponse.parse(turn.report);
  const cards = report.content.flatMap((c) => (c.type === 'reading' ? c.readings : []));
  // The columns the report names, in `field = "Header"` pairs after "Columns used:".
  const used = /Columns used: ([^\n]*?)\.(?: |$|\n)/.exec(texts(report.content))?.[1] ?? '';
  const named = [...used.matchAll(/= "([^"]+)"/g)].map((m) => m[1]!);
  return { cards, named };
}

const columnsOf = (r: TableReading) => r.columns.map((c) => c.name);

describe('the reading card of a Governance register', () => {
  it('lists the risk register columns the review used, with no HR role', async () => {
    const { cards, named } = await review(
      'Health check of our risk register: find risks without an owner, a due date or a mitigation',
      'risk-register.xlsx',
      readFileSync(path.join(dir, 'risk-register.xlsx')),
    );
    expect(named.length).toBeGreaterThan(3);
    expect(cards).toHaveLength(1);
    expect(new Set(columnsOf(cards[0]!))).toEqual(new Set(named));
    expect(cards[0]!.columns.every((c) => c.role === null)).toBe(true);
    expect(cards[0]!.personKey).toBeNull();
    expect(cards[0]!.signature).not.toBe('');
  });

  it('does so for a register of interests whose headers look like a staff list', async () => {
    // Employee number, name, department and date columns: what the workforce reader takes for HR.
    const csv = [
      'Employee No,Name,Department,Position,Nature of interest,Organisation,Date declared,Last reviewed,Salary band',
      'E001,Jane Smith,Finance,Director of Finance,Non-executive director,Acme Ltd,2024-01-10,2024-02-01,B',
      'E002,Tom Jones,Operations,COO,Shareholding (5%),Beta Logistics plc,2025-03-02,2025-09-30,C',
      'E003,Ana Perez,Legal,General Counsel,None,,2025-06-01,2025-06-01,B',
      'E004,Raj Patel,Board,Chair,Trustee,Local Hospice,2023-05-05,,A',
    ].join('\n');
    const { cards, named } = await review(
      "Check our register of directors' interests: overdue declarations, missing declarations and duplicates",
      'register-of-interests.csv',
      csv,
    );
    expect(named).toEqual(
      expect.arrayContaining(['Name', 'Nature of interest', 'Organisation', 'Last reviewed']),
    );
    expect(cards).toHaveLength(1);
    expect(new Set(columnsOf(cards[0]!))).toEqual(new Set(named));
    expect(columnsOf(cards[0]!)).not.toContain('Salary band');
    expect(cards[0]!.columns.every((c) => c.role === null)).toBe(true);
  });
});

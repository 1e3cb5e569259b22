import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import * as G from '../../../../test-support/fixtures/documents/governance-docs';
import { loadTables } from '../../tables/load';
import type { TableSet } from '../../tables/types';
import { attachment } from '../../../../test-support/analyst/turns';
import { extractDocument } from '../../tools/documents';
import type { ToolContext } from '../../tools/tool';
import type { HistoryAttachment } from '../../types';
import { governanceAgent } from './governance';
import { checklistCoverage } from './tools/checklist';
import { minutesFromNotes } from './tools/minutes';
import { REGISTERS } from './tools/registers';
import { riskRegisterReview } from './tools/risk-register-review';
import { termsOfReferenceReview } from './tools/terms-of-reference';

/** The Governance tools called directly, as the worker calls them: zod input, ToolContext, JSON out. */

const dir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../test-support/fixtures/documents',
);
const doc = (name: string) => attachment(name, readFileSync(path.join(dir, name)));
const sets: TableSet[] = [];
afterAll(() => sets.forEach((s) => s.close()));

function contextOf(files: HistoryAttachment[]): ToolContext {
  let tables: Promise<TableSet> | null = null;
  return {
    fileNames: files.map((f) => f.fileName),
    tables: () =>
      (tables ??= loadTables(files.filter((f) => /\.(csv|xlsx)$/.test(f.fileName))).then((s) => {
        sets.push(s);
        return s;
      })),
    document: (name) => extractDocument(files.find((f) => f.fileName === name) ?? files[0]!),
  };
}

describe('checklist_coverage', () => {
  it('judges a section by its content when its heading names nothing on the checklist', async () => {
    const policy =
      'Travel Policy\nHow we run it\nThe Finance Director owns this policy. Line managers approve trips and make sure costs are reasonable.\nBooking\nStaff must book through the travel portal.';
    const out = await checklistCoverage.run(
      contextOf([attachment('travel.txt', policy)]),
      checklistCoverage.input.parse({}),
    );
    const roles = out.items.find((i) => i.key === 'roles')!;
    expect(roles).toMatchObject({
      status: 'covered',
      section: 'How we run it',
      matchedBy: 'content',
    });
    expect(out.items.find((i) => i.key === 'statements')).toMatchObject({
      status: 'covered',
      section: 'Booking',
    });
    // 11 items, personal data not touched: 10 applicable; covered: purpose? no. roles, statements.
    expect(out.applicable).toBe(10);
  });

  it('a mention without a section is partial, not covered', async () => {
    const policy =
      "Expenses Policy\nClaims\nStaff must claim within 30 days. Exceptions need the CFO's approval.";
    const out = await checklistCoverage.run(
      contextOf([attachment('expenses.txt', policy)]),
      checklistCoverage.input.parse({}),
    );
    expect(out.items.find((i) => i.key === 'exceptions')!.status).toBe('covered');
    const review = out.items.find((i) => i.key === 'review')!;
    expect(review.status).toBe('missing');
  });

  it('checks a policy pasted in the message', async () => {
    const text =
      'Leave Policy\nWho it applies to\nAll employees and contractors.\nHow to book\nStaff must book leave in the HR system.';
    const out = await checklistCoverage.run(contextOf([]), checklistCoverage.input.parse({ text }));
    expect(out).toMatchObject({ title: 'Leave Policy', fileName: 'the text of your message' });
    expect(out.items.find((i) => i.key === 'scope')).toMatchObject({
      status: 'covered',
      section: 'Who it applies to',
    });
  });

  it('rejects an unknown checklist at the schema', () => {
    expect(checklistCoverage.input.safeParse({ checklist: 'tax' }).success).toBe(false);
  });
});

describe('risk_register_review', () => {
  it('computes drift and the heat map from the register as a reader would', async () => {
    const out = await riskRegisterReview.run(contextOf([doc('risk-register.xlsx')]), {});
    const word: Record<string, number> = { Low: 2, Medium: 3, High: 4 };
    const score = (v: unknown) => (typeof v === 'number' ? v : word[String(v)]!);
    const heat = Array.from({ length: 5 }, () => Array<number>(5).fill(0));
    // "High" in the impact column, whose other cells are numbers, is not read as a number by the
    // table engine (per-column types): R-02 is reported as unscored rather than guessed.
    for (const r of G.RISK_REGISTER_ROWS.filter((x) => x[0] !== 'R-02'))
      heat[score(r[4]) - 1]![score(r[3]) - 1]!++;
    expect(out.heatMap).toEqual(heat);
    expect(out.unscored).toEqual(['R-02: Loss of key logistics supplier']);
    expect(out.unreadable).toEqual([{ column: 'Impact (1-5)', cells: 1 }]);
    for (const r of out.risks.filter((x) => x.id !== 'R-02')) {
      const row = G.RISK_REGISTER_ROWS.find((x) => x[0] === r.id)!;
      expect(r.score).toBe(score(row[3]) * score(row[4]));
    }
    expect(out.drift.up.map((r) => r.id).sort()).toEqual(['R-01', 'R-05']);
    expect(out.drift.down.map((r) => r.id)).toEqual(['R-07']);
    expect(out.asOf).toBe(G.RISK_REGISTER_FACTS.asOf);
  });
});

describe('minutes_from_notes and terms_of_reference_review', () => {
  it('never invents an owner or a date', async () => {
    const out = await minutesFromNotes.run(
      contextOf([doc('board-notes.docx'), doc('previous-action-log.md')]),
      minutesFromNotes.input.parse({}),
    );
    const covenant = out.actions.find((a) => /covenant/.test(a.action))!;
    expect(covenant).toMatchObject({ owner: null, due: null });
    expect(out.actions.map((a) => a.dueDate)).toEqual(G.MINUTES_FACTS.actions.map((a) => a.due));
  });

  it('reads the figures the terms state', async () => {
    const out = await termsOfReferenceReview.run(contextOf([doc('audit-committee-tor.pdf')]), {});
    expect(out.checks.find((c) => c.element === 'Quorum')!.verdict).toBe('meets');
    expect(out.checks.find((c) => c.element === 'Meeting frequency')).toMatchObject({
      verdict: 'weak',
    });
  });
});

describe('the registers the tools read', () => {
  it('are the ones the instructions name, the register of interests included', () => {
    const named = /registers \(([^)]*)\)/.exec(governanceAgent.instructions)?.[1];
    expect(named?.split(', ')).toEqual(Object.values(REGISTERS).map((r) => r.kind));
    expect(named).toContain('interests');
  });
});

import { describe, expect, it } from 'vitest';
import type { TableReading } from '@contract/reading';
import type { StructuredResponse } from '@contract/structured-response';
import { aReading } from '../../../test-support/server-tests';
import { applyReadingCard, rolesMissingFor } from './reading-card';

// The card step of a turn (ADR 0051): after the reading notes, replacing any a model wrote, or
// the whole answer when the question needs a role no column holds.

const reading = (roles: Record<string, TableReading['columns'][number]['role']>): TableReading =>
  aReading({
    signature: 'abc',
    columns: Object.entries(roles).map(([name, role]) => ({ name, role })),
    personKey: 'Id',
  });
const report = (): StructuredResponse => ({
  task_name: 'Headcount',
  content: [
    { type: 'text', text: '**5** people.' },
    { type: 'text', text: '### How I read your file\n\n- staff.csv' },
    { type: 'text', text: 'Note.' },
    {
      type: 'reading',
      readings: [reading({ Id: 'name' })],
    },
  ],
  next_steps: [{ step_description: 'Show headcount by grade' }],
});

describe('the reading card step', () => {
  const read = reading({ Id: 'employeeId', Kst: null, Pay: 'salary' });

  it('puts the engine reading right after the reading notes, replacing one a model wrote', () => {
    const out = applyReadingCard(
      report(),
      [{ tool: 'read_tables', output: { readings: [read], confirmedAt: null } }],
      'How many people?',
      'talent-intelligence',
    );
    expect(out.content.map((c) => c.type)).toEqual(['text', 'text', 'reading', 'text']);
    expect(out.content[2]).toEqual({ type: 'reading', readings: [read] });
    expect(out.next_steps).toHaveLength(1);
    // Applied twice, the same report.
    expect(
      applyReadingCard(
        out,
        [{ tool: 'read_tables', output: { readings: [read] } }],
        'How many people?',
        'talent-intelligence',
      ),
    ).toEqual(out);
  });

  it('answers with the card asking for the roles a failed call or the question needs', () => {
    const out = applyReadingCard(
      report(),
      [
        { tool: 'read_tables', output: { readings: [read] } },
        { tool: 'pay_gap', output: { error: 'No gender column', needs: ['gender'] } },
      ],
      'Headcount by department and the pay gap',
      'talent-intelligence',
    );
    expect(out.content).toHaveLength(2);
    expect(out.content[0]).toMatchObject({ type: 'text' });
    expect((out.content[0] as { text: string }).text).toMatch(
      /which column holds the gender and department/,
    );
    expect(out.content[1]).toMatchObject({ type: 'reading', needs: ['gender', 'department'] });
    expect(out.next_steps).toEqual([]);
  });

  it('asks only for what no column holds, and shows no card without a reading', () => {
    expect(rolesMissingFor('salary by country', [read])).toEqual(['country']);
    expect(rolesMissingFor('headcount by cost centre', [read])).toEqual([]);
    const none = applyReadingCard(report(), [], 'by department', 'talent-intelligence');
    // A card a model made up, with no reading of the engine behind it, is dropped.
    expect(none.content.map((c) => c.type)).toEqual(['text', 'text', 'text']);
  });

  it("shows a Governance register's card with the columns its review used, and no HR role", () => {
    const register = {
      ...reading({ Id: 'employeeId', Owner: 'name', Pay: 'salary', Notes: null }),
      currency: 'GBP',
    };
    const results = [
      { tool: 'read_tables', output: { readings: [register] } },
      {
        tool: 'risk_register_review',
        output: { source: 'staff.csv', columns: { id: 'Id', owner: 'Owner', due: null } },
      },
    ];
    const out = applyReadingCard(report(), results, 'Review the register', 'governance');
    expect(out.content[2]).toEqual({
      type: 'reading',
      readings: [
        {
          ...register,
          columns: [
            { name: 'Id', role: null },
            { name: 'Owner', role: null },
          ],
          personKey: null,
          currency: null,
        },
      ],
    });
    // Talent Intelligence keeps the table reader's roles, whatever else a tool returned.
    expect(
      applyReadingCard(report(), results, 'Review the register', 'talent-intelligence').content[2],
    ).toEqual({ type: 'reading', readings: [register] });
  });
});

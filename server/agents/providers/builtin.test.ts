import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import {
  attachment,
  chart,
  dataOf,
  fileOf,
  fixture,
  runTurn,
  texts,
  userMessage,
} from '../test-helpers';
import { builtinAgent } from './builtin';

const agent = builtinAgent();

/** Median with linear interpolation, written independently of the analyst's stats module. */
function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2;
}

interface Person {
  department: string;
  location: string;
  level: string;
  hire: string;
  exit: string;
  rating: number;
  salary: number;
}

function tally(people: Person[], key: (p: Person) => string) {
  const m = new Map<string, number>();
  for (const p of people) m.set(key(p), (m.get(key(p)) ?? 0) + 1);
  return m;
}

describe('builtin Talent Intelligence on the sample workforce CSV', async () => {
  const raw = readFileSync(new URL('../fixtures/workforce.csv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const people: Person[] = raw.map((line) => {
    const [, department, location, level, hire, exit, rating, salary] = line.split(',');
    return {
      department: department!,
      location: location!,
      level: level!,
      hire: hire!,
      exit: exit!,
      rating: Number(rating),
      salary: Number(salary),
    };
  });
  const current = people.filter((p) => !p.exit);
  const leavers = people.length - current.length;
  const turn = await runTurn(agent, 'talent-intelligence', [
    userMessage('Where is attrition highest?', [fixture('workforce.csv')]),
  ]);
  const { report } = turn;

  it('ends with a valid report, streamed as the same JSON text', () => {
    expect(StructuredResponse.parse(report)).toEqual(report);
    expect(turn.streamed).toBe(turn.final.text);
    expect(JSON.parse(turn.final.text)).toEqual(report);
    expect(report.task_name).toBe('Attrition analysis: workforce.csv');
    expect(turn.thinking).toEqual(
      expect.arrayContaining([
        'Calling tool profile_table',
        'Calling tool workforce_summary',
        'Calling tool attrition_by',
        'Calling tool pay_stats',
      ]),
    );
  });

  it('reports headcount, leavers and the attrition rate computed from the file', () => {
    const rate = Math.round((leavers / people.length) * 1000) / 10;
    expect(texts(report.content)).toContain(
      `**${people.length}** people in the file: **${current.length}** current employees and **${leavers}** leavers, an attrition rate of **${rate}%**`,
    );
    const byDept = dataOf(chart(report.content, 'Headcount by department'));
    const expected = tally(current, (p) => p.department);
    expect(
      Object.fromEntries(byDept.labels.map((l, i) => [l, byDept.datasets[0]!.data[i]])),
    ).toEqual(Object.fromEntries(expected));
    expect(chart(report.content, 'Headcount by location')!.chart_type).toBe('doughnut');
  });

  it('charts attrition by department, ratings, tenure and hires over time', () => {
    const attrition = dataOf(chart(report.content, 'Attrition rate by department'));
    for (const [i, dept] of attrition.labels.entries()) {
      const all = people.filter((p) => p.department === dept);
      const left = all.filter((p) => p.exit).length;
      expect(attrition.datasets[0]!.data[i]).toBeCloseTo((left / all.length) * 100, 1);
    }
    const ratings = dataOf(chart(report.content, 'Performance rating distribution'));
    expect(ratings.labels.map(Number)).toEqual([...new Set(current.map((p) => p.rating))].sort());
    expect(ratings.datasets[0]!.data.reduce((a, b) => a + b, 0)).toBe(current.length);
    const tenure = dataOf(chart(report.content, 'Tenure bands'));
    expect(tenure.datasets[0]!.data.reduce((a, b) => a + b, 0)).toBe(current.length);
    const hires = chart(report.content, 'Hires by year')!;
    expect(hires.chart_type).toBe('line');
    const hiresData = dataOf(hires);
    const byYear = tally(people, (p) => p.hire.slice(0, 4));
    hiresData.labels.forEach((year, i) =>
      expect(hiresData.datasets[0]!.data[i]).toBe(byYear.get(year) ?? 0),
    );
  });

  it('gives pay statistics by level that match an independent median', () => {
    const pay = dataOf(chart(report.content, 'Pay by level (quartiles)'));
    for (const [i, level] of pay.labels.entries()) {
      expect(pay.datasets[1]!.data[i]).toBe(
        Math.round(medianOf(current.filter((p) => p.level === level).map((p) => p.salary))),
      );
    }
    const overall = medianOf(current.map((p) => p.salary));
    expect(texts(report.content)).toContain(
      `median **${overall.toLocaleString('en-US', { maximumFractionDigits: 0 })}**`,
    );
  });

  it('attaches a markdown report, next steps and says it is rule-based', () => {
    const md = fileOf(report.content, 'workforce-report.md')!;
    expect(md.file_data).toContain('## Attrition by department');
    expect(md.file_data).toContain('## Pay');
    expect(texts(report.content)).toMatch(/built-in rule-based analyst/);
    expect(report.next_steps.length).toBeGreaterThanOrEqual(3);
  });
});

describe('builtin Talent Intelligence on the sample XLSX (different header names)', async () => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(new URL('../fixtures/workforce.xlsx', import.meta.url).pathname);
  const rows: Array<{ dept: string; salary: number; left: boolean }> = [];
  book.worksheets[0]!.eachRow((row, n) => {
    if (n === 1) return;
    rows.push({
      dept: String(row.getCell(2).value),
      salary: Number(row.getCell(8).value),
      left: row.getCell(6).value !== null,
    });
  });
  const current = rows.filter((r) => !r.left);
  const turn = await runTurn(agent, 'talent-intelligence', [
    userMessage('Show pay by department', [fixture('workforce.xlsx')]),
  ]);

  it('recognises the columns by synonym and computes the same figures', () => {
    const t = texts(turn.report.content);
    expect(t).toContain('department → "Dept"');
    expect(t).toContain('pay → "Annual Salary"');
    expect(t).toContain(
      `**${rows.length}** people in the file: **${current.length}** current employees`,
    );
    expect(turn.report.task_name).toBe('Pay analysis: workforce.xlsx');
    const md = fileOf(turn.report.content, 'workforce-report.md')!.file_data;
    const engineering = current.filter((r) => r.dept === 'Engineering').map((r) => r.salary);
    expect(md).toMatch(
      new RegExp(
        `\\| Engineering \\| ${engineering.length} \\| [^|]+ \\| [^|]+ \\| ${Math.round(medianOf(engineering)).toLocaleString('en-US')} \\|`,
      ),
    );
  });
});

describe('builtin Talent Intelligence on JSON and generic tables', () => {
  it('reads a JSON array of employees', async () => {
    const data = JSON.stringify({
      employees: [
        { department: 'Sales', salary: 50000 },
        { department: 'Sales', salary: 70000 },
        { department: 'IT', salary: 60000 },
      ],
    });
    const { report } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Headcount please', [attachment('staff.json', data)]),
    ]);
    expect(dataOf(chart(report.content, 'Headcount by department')).datasets[0]!.data).toEqual([
      2, 1,
    ]);
    expect(texts(report.content)).toContain('median **60,000**');
  });

  it('profiles a table without workforce columns and says so', async () => {
    const { report } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Look at this', [
        attachment('fruit.csv', 'fruit,weight\napple,3\npear,4\napple,5\n'),
      ]),
    ]);
    expect(texts(report.content)).toContain('I did not recognise workforce columns');
    expect(dataOf(chart(report.content, 'Rows by fruit')).datasets[0]!.data).toEqual([2, 1]);
  });
});

describe('builtin Governance on the sample policies', () => {
  it('scores the PDF acceptable use policy and drafts the missing sections', async () => {
    const turn = await runTurn(agent, 'governance', [
      userMessage('Check this policy for gaps', [fixture('policy.pdf')]),
    ]);
    const { report } = turn;
    expect(report.task_name).toBe('Policy gap check: Acceptable Use Policy');
    const t = texts(report.content);
    // 5 sections present, data protection only mentioned: (5 + 0.5) / 11 applicable items.
    expect(t).toContain('**Coverage score: 50%** of 11 applicable checklist items');
    expect(t).toContain(
      'Missing: Definitions, Exceptions, Review cycle, Owner and approval, Related documents.',
    );
    expect(t).toContain(
      '| Data protection | ⚠️ Mentioned, no section | "Customer personal data may only be stored in approved systems." |',
    );
    const radar = chart(report.content, 'Checklist coverage: Acceptable Use Policy')!;
    expect(radar.chart_type).toBe('radar');
    expect(dataOf(radar).datasets[0]!.data).toEqual([100, 100, 0, 100, 100, 100, 0, 0, 0, 0, 50]);
    const skeleton = fileOf(report.content, 'acceptable-use-policy-missing-sections.md')!.file_data;
    for (const s of [
      'Definitions',
      'Exceptions',
      'Review cycle',
      'Owner and approval',
      'Related documents',
      'Data protection',
    ])
      expect(skeleton).toContain(`. ${s}`);
    expect(skeleton).not.toContain('. Purpose');
    expect(turn.thinking).toEqual(
      expect.arrayContaining([
        'Calling tool read_document',
        'Calling tool policy_coverage',
        'Calling tool policy_skeleton',
      ]),
    );
  });

  it('scores the DOCX retention policy and adds a risk register on request', async () => {
    const { report } = await runTurn(agent, 'governance', [
      userMessage('Review this policy and prepare a risk register', [fixture('policy.docx')]),
    ]);
    const t = texts(report.content);
    // 7 sections present, data protection mentioned: (7 + 0.5) / 11 = 68.2 %.
    expect(t).toContain('**Coverage score: 68.2%**');
    expect(t).toContain('Missing: Compliance and enforcement, Exceptions, Related documents.');
    const register = fileOf(report.content, 'data-retention-policy-risk-register.md')!.file_data;
    expect(register).toContain(
      '| ID | Risk | Category | Cause | Impact (1-5) | Likelihood (1-5) | Score |',
    );
    expect(register).toContain('Data Retention Policy: no exceptions section');
    expect(chart(report.content, 'Risk scores (impact × likelihood)')).toBeDefined();
  });

  it('reviews a policy pasted as markdown', async () => {
    const md =
      '# Travel Policy\n\n## Purpose\nThis policy explains travel.\n\n## Scope\nAll staff.\n\n## Review\nReviewed annually.';
    const { report } = await runTurn(agent, 'governance', [
      userMessage('Check it', [attachment('travel.md', md)]),
    ]);
    expect(report.task_name).toBe('Policy gap check: Travel Policy');
    expect(texts(report.content)).toContain('| Review cycle | ✅ Covered | "Review" |');
  });
});

describe('builtin Brand Hub', () => {
  it('reviews the sample copy line by line against the default voice', async () => {
    const { report } = await runTurn(agent, 'brand-hub', [
      userMessage('Review this copy', [fixture('brand-copy.txt')]),
    ]);
    expect(report.task_name).toBe('Brand voice review');
    const t = texts(report.content);
    expect(t).toContain('| Long sentences | 0 of 6 |');
    expect(t).toContain('| Passive sentences | 2 of 6 |');
    expect(t).toContain(
      'revolutionary (1), best-in-class (1), world-class (1), cutting-edge (1), synergy (1), seamless (1), leveraged (1)',
    );
    expect(t).toContain(
      '| 3 | Invoices are processed automatically and payments are reconciled by our engine in real time. | Passive voice: "are processed" |',
    );
    expect(t).toContain(
      'To use the full power of the platform, customers are encouraged to buy the premium plan.',
    );
    const scores = dataOf(chart(report.content, 'Brand voice scorecard'));
    expect(scores.labels).toEqual([
      'Readability',
      'Sentence length',
      'Active voice',
      'Word choice',
      'Overall',
    ]);
    expect(scores.datasets[0]!.data[2]).toBe(67); // 4 of 6 sentences active
    expect(fileOf(report.content, 'copy-review.md')).toBeDefined();
  });

  it('uses the voice and copy given in the message', async () => {
    const message =
      'Review against our voice.\nVoice: warm, playful\nBanned terms: cheap\nCopy:\nOur cheap plans are loved by teams. Try it today.';
    const { report } = await runTurn(agent, 'brand-hub', [userMessage(message)]);
    const t = texts(report.content);
    expect(t).toContain('Brand voice: **warm, playful** (from your message)');
    expect(t).toContain('cheap (1)');
    expect(t).toContain('Passive voice: "are loved"');
  });

  it('writes a campaign brief and a content calendar as HTML when asked', async () => {
    const { report } = await runTurn(agent, 'brand-hub', [
      userMessage(
        'Write a campaign brief and a 6-week content calendar for Nimbus Pay targeting small business owners on LinkedIn and email, as HTML',
      ),
    ]);
    const brief = fileOf(report.content, 'campaign-brief.html')!.file_data;
    expect(brief).toContain('<h1>Campaign brief: Nimbus Pay</h1>');
    expect(brief).toContain('Primary: small business owners.');
    const calendar = fileOf(report.content, 'content-calendar.html')!.file_data;
    expect(calendar.match(/<tr><td>Week /g)).toHaveLength(12);
    expect(dataOf(chart(report.content, 'Posts per channel')).datasets[0]!.data).toEqual([6, 6]);
  });

  it('writes markdown files by default', async () => {
    const { report } = await runTurn(agent, 'brand-hub', [
      userMessage('Plan a content calendar for Instagram'),
    ]);
    expect(fileOf(report.content, 'content-calendar.md')!.file_data).toContain('| Week 4 | ');
  });
});

describe('builtin analyst on bad files', () => {
  const cases: Array<
    [
      string,
      'talent-intelligence' | 'governance' | 'brand-hub',
      ReturnType<typeof attachment>,
      RegExp,
    ]
  > = [
    [
      'an empty CSV',
      'talent-intelligence',
      attachment('empty.csv', ''),
      /empty.csv is empty: there are no rows to analyse/,
    ],
    [
      'a CSV with only a header',
      'talent-intelligence',
      attachment('header.csv', 'Department,Salary\n'),
      /has a header row but no data rows/,
    ],
    [
      'a binary file named .csv',
      'talent-intelligence',
      attachment('photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3])),
      /photo.csv does not look like a CSV file/,
    ],
    [
      'a corrupt XLSX',
      'talent-intelligence',
      attachment('book.xlsx', 'not a zip'),
      /could not be read as an Excel workbook/,
    ],
    [
      'invalid JSON',
      'talent-intelligence',
      attachment('staff.json', '[{"a": 1'),
      /staff.json is not valid JSON/,
    ],
    [
      'a corrupt PDF',
      'governance',
      attachment('policy.pdf', '%PDF-1.4 garbage'),
      /policy.pdf could not be read as a PDF/,
    ],
    [
      'a corrupt DOCX',
      'governance',
      attachment('policy.docx', 'not a zip'),
      /could not be read as a Word document/,
    ],
    [
      'a PDF without text',
      'governance',
      attachment(
        'scan.pdf',
        readFileSync(new URL('../fixtures/policy.pdf', import.meta.url))
          .toString('latin1')
          .replace(/\((.*?)\) Tj/g, '() Tj'),
      ),
      /no text layer|could not be read as a PDF/,
    ],
    [
      'a binary text file',
      'brand-hub',
      attachment('copy.txt', Buffer.from([0, 1, 2, 3, 0, 5])),
      /copy.txt does not look like a text file/,
    ],
  ];
  for (const [name, module, file, message] of cases) {
    it(`explains ${name} in a valid report`, async () => {
      const { report } = await runTurn(agent, module, [userMessage('Analyse this', [file])]);
      expect(StructuredResponse.parse(report)).toEqual(report);
      expect(texts(report.content)).toMatch(message);
      expect(report.next_steps.length).toBeGreaterThan(0);
    });
  }

  it('stops when the turn is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(
      runTurn(
        agent,
        'talent-intelligence',
        [userMessage('x', [fixture('workforce.csv')])],
        controller.signal,
      ),
    ).rejects.toThrow('stopped');
  });
});

describe('builtin analyst follow-ups', () => {
  it('reuses the file of an earlier message', async () => {
    const { report } = await runTurn(agent, 'talent-intelligence', [
      userMessage('Analyse this', [fixture('workforce.csv')]),
      {
        role: 'assistant',
        text: '{"task_name":"Workforce analysis: workforce.csv"}',
        attachments: [],
      },
      userMessage('Now focus on pay'),
    ]);
    expect(report.task_name).toBe('Pay analysis: workforce.csv');
  });

  it('is deterministic', async () => {
    const history = [userMessage('Check', [fixture('policy.docx')])];
    const a = await runTurn(agent, 'governance', history);
    const b = await runTurn(agent, 'governance', history);
    expect(a.final.text).toBe(b.final.text);
  });
});

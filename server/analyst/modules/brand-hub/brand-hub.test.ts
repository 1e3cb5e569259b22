import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResponse } from '@contract/structured-response';
import * as B from '../../../../test-support/fixtures/documents/brand-docs';
import { documentFixture, texts, userMessage } from '../../../../test-support/analyst/turns';
import { askModule, startersOf } from '../../../../test-support/analyst/ask';
import {
  cell,
  chartOf,
  column,
  csvOf,
  fileOf,
  headingsOf,
  rowOf,
  sectionOf,
  tableOf,
  tablesOf,
  nextStepsOf,
} from '../../../../test-support/analyst/report';
import { closeToolPool } from '../../tools/runner';
import type { HistoryAttachment, HistoryMessage } from '../../types';

/**
 * Every Brand Hub starter, sent as the client sends it with realistic files: the test reads the
 * starter's own text and checks each element it promises. Figures are computed here from the
 * fixture constants, independently of the code under test.
 */

const doc = documentFixture;
const starters = startersOf('brand-hub');

afterAll(() => closeToolPool());

type Report = StructuredResponse;
const chartTitles = (r: Report) => r.content.flatMap((c) => (c.type === 'chart' ? [c.title] : []));
const firstText = (r: Report) =>
  (r.content.find((c) => c.type === 'text') as { text: string }).text;

const ask = (message: string, attachments?: HistoryAttachment[], before?: HistoryMessage[]) =>
  askModule('brand-hub', message, attachments, before);

const pct = (a: number, b: number) => `${Math.round((a / b) * 1000) / 10}%`;
const gbp = (n: number) => `£${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}`;

type Check = [phrase: string, check: (r: Report) => void];
interface Case {
  attach: string[];
  extra?: string;
  promises: Check[];
}

const CASES: Record<string, Case> = {
  'Brand voice review': {
    attach: ['launch-email.md', 'brand-guidelines.docx'],
    promises: [
      [
        'banned terms',
        (r) => {
          const lead = firstText(r);
          for (const forms of Object.values(B.LAUNCH_EMAIL_FACTS.banned))
            for (const f of forms) expect(lead).toContain(`"${f}"`);
          // The guidelines are applied to the copy, not reviewed as copy.
          expect(texts(r.content)).toContain('Rules applied from **brand-guidelines.docx**');
          expect(headingsOf(r)).not.toContain('Scored summary: brand-guidelines.docx');
        },
      ],
      [
        'readability, tone, jargon',
        (r) => {
          const summary = tableOf(r, 'Scored summary: launch-email.md');
          const result = (measure: string) => cell(summary, measure, 'Result');
          expect(result('Reading level (Flesch reading ease)')).toMatch(/^\d+(\.\d)?\b/);
          expect(result('Active voice')).toMatch(
            /^2 passive of \d+: "are matched[^"]*", "will be upgraded"$/,
          );
          expect(sectionOf(r, 'Scored summary: launch-email.md')).not.toContain('are excited');
          expect(result('Preferred wording')).toMatch(/users → customers.*purchase → buy/);
        },
      ],
      [
        'with a scored summary and a rewritten version',
        (r) => {
          expect(firstText(r)).toMatch(/scores \d+\/100 against the brand voice/);
          const rewritten = sectionOf(r, 'Rewritten version');
          expect(rewritten).toContain('Nimbus Pay now uses open banking');
          expect(rewritten).toContain('By using real-time rails, our team have built');
          expect(rewritten).toContain('Customers who buy the Pro plan');
          expect(rewritten).not.toMatch(/leverag|purchase|\bstaff\b/i);
        },
      ],
    ],
  },
  'Website page tone audit': {
    attach: ['pricing-page.html'],
    promises: [
      [
        'sentence length, reading level, active voice',
        (r) => {
          const summary = tableOf(r, 'Scored summary: pricing-page.html');
          const result = (measure: string) => cell(summary, measure, 'Result');
          expect(result('Long sentences')).toMatch(
            new RegExp(`^${B.PRICING_FACTS.longSentences} of `),
          );
          expect(result('Active voice')).toMatch(
            new RegExp(`^${B.PRICING_FACTS.passives} passive of `),
          );
          expect(result('Reading level (Flesch reading ease)')).toMatch(/^\d/);
          // The page's script and style are not copy.
          expect(texts(r.content)).not.toContain("track('pricing')");
        },
      ],
      [
        'consistency with our brand voice, with line-by-line suggestions',
        (r) => {
          const lines = column(tableOf(r, 'Line-by-line suggestions'), 'Findings').join('\n');
          expect(lines).toMatch(/Long sentence \(40 words/);
          expect(lines).toContain('Capitals for emphasis: FREE');
          expect(lines).toContain('Several exclamation marks');
          expect(r.task_name).toBe('Tone audit: pricing-page.html');
        },
      ],
    ],
  },
  'Tone of voice guide': {
    attach: ['sample-1.md', 'sample-2.md', 'sample-3.md'],
    promises: [
      [
        'our voice in three words',
        (r) => expect(firstText(r)).toMatch(/^\*\*Our voice in three words: \w+, \w+, \w+\.\*\*/),
      ],
      [
        "do and don't examples",
        (r) => {
          const guide = fileOf(r, /tone-of-voice-guide\.md$/)!;
          expect(guide).toMatch(/## Do\n\n- "[^"]+"/);
          expect(guide).toContain("## Don't");
          // Do examples are the samples' own sentences.
          const dos = guide.split('## Do\n\n')[1]!.split('\n\n')[0]!.split('\n');
          for (const d of dos)
            expect(B.SAMPLES.join(' ')).toContain(d.slice(3, -1).replace(/[.!?]$/, ''));
        },
      ],
      [
        'preferred and banned words',
        (r) => {
          const guide = fileOf(r, /tone-of-voice-guide\.md$/)!;
          expect(guide).toMatch(/## Words we use\n\n[^\n]*\bpaid\b/);
          expect(guide).toMatch(/## Words we don't use\n\n[^\n]*leverage/);
        },
      ],
    ],
  },
  'Campaign brief': {
    attach: [],
    extra:
      ' Product: Instant Payouts for small businesses. Goal: to drive 2,000 sign-ups in 6 weeks. Budget £40,000 across LinkedIn, email and paid search, targeting UK sole traders.',
    promises: [
      [
        'objective, audience, single-minded proposition, key messages, channels, budget split, timeline and how we will measure success',
        (r) => {
          const brief = fileOf(r, /campaign-brief\.md$/)!;
          for (const h of [
            'Objective',
            'Audience',
            'Single-minded proposition',
            'Key messages',
            'Channels',
            'Budget split',
            'Timeline',
            'How we will measure success',
          ])
            expect(brief).toContain(`## ${h}`);
          expect(brief).toContain('UK sole traders');
          // The split adds up to 100% and the amounts to the stated budget.
          const rows = [...brief.matchAll(/^\| [^|]+ \| (\d+)% \| £([\d,]+) \|$/gm)];
          expect(rows.reduce((s, m) => s + Number(m[1]), 0)).toBe(100);
          expect(rows.reduce((s, m) => s + Number(m[2]!.replace(/,/g, '')), 0)).toBe(40_000);
          expect(brief).toMatch(/Week 6/);
        },
      ],
    ],
  },
  'Product launch messaging': {
    attach: ['fact-sheet.docx'],
    promises: [
      [
        'a positioning statement, a headline, three proof points',
        (r) => {
          const lead = firstText(r);
          expect(lead).toMatch(
            /\*\*Positioning statement:\*\* For small businesses and sole traders in the UK/,
          );
          expect(lead).toContain(
            'Unlike the alternative (most banks settle card and invoice payments in 2 to 3 working days)',
          );
          expect(lead).toMatch(/\*\*Headline:\*\* Payouts in under 30 minutes\./);
          expect(lead).toMatch(/1\. [^\n]*30 minutes[\s\S]*2\. [^\n]*0\.5%[\s\S]*3\. [^\n]*12,000/);
        },
      ],
      [
        'short copy for email, social and the website',
        (r) => {
          const copy = sectionOf(r, 'Short copy');
          expect(copy).toMatch(/\*\*Email\*\*[\s\S]*Subject: /);
          expect(copy).toContain('**Social**');
          expect(copy).toMatch(/\*\*Website\*\*[\s\S]*Headline: /);
          expect(copy).toContain('Available from 3 March 2027');
        },
      ],
    ],
  },
  'Campaign results review': {
    attach: ['campaign-results.csv'],
    promises: [
      [
        'reach, engagement, click-through and conversion by channel against target',
        (r) => {
          const table = tableOf(r, 'By channel against target');
          for (const [ch, f] of Object.entries(B.CAMPAIGN_FACTS))
            expect(rowOf(table, ch)).toEqual({
              Channel: ch,
              Spend: gbp(f.spend),
              Impressions: f.impressions.toLocaleString('en-GB'),
              Clicks: f.clicks.toLocaleString('en-GB'),
              'Click-through': pct(f.clicks, f.impressions),
              Conversions: String(f.conversions),
              'Conversion rate': pct(f.conversions, f.clicks),
              'Cost per conversion': gbp(Math.round((f.spend / f.conversions) * 100) / 100),
              Target: String(f.target),
              'Against target': pct(f.conversions, f.target),
            });
          const total = Object.values(B.CAMPAIGN_FACTS).reduce(
            (s, f) => ({
              spend: s.spend + f.spend,
              conv: s.conv + f.conversions,
              target: s.target + f.target,
            }),
            { spend: 0, conv: 0, target: 0 },
          );
          expect(firstText(r)).toContain(
            `spent ${gbp(total.spend)} for ${total.conv} conversions (${pct(total.conv, total.target)} of target)`,
          );
        },
      ],
      [
        'with a chart and what to change next time',
        (r) => {
          const chart = chartOf(r, 'Conversions against target by channel');
          for (const [i, ch] of chart.labels.entries()) {
            expect(chart.series.Conversions![i]).toBe(B.CAMPAIGN_FACTS[ch]!.conversions);
            expect(chart.series.Target![i]).toBe(B.CAMPAIGN_FACTS[ch]!.target);
          }
          expect([...chart.labels].sort()).toEqual(Object.keys(B.CAMPAIGN_FACTS).sort());
          const change = sectionOf(r, 'What to change next time');
          expect(change).toContain('Move budget from LinkedIn');
          expect(change).toMatch(/Email has 1 row\(s\) with no conversions recorded/);
        },
      ],
    ],
  },
  'Quarterly content calendar': {
    attach: ['content-performance.csv'],
    promises: [
      [
        'weekly themes, formats and channels',
        (r) => {
          const weeks = tableOf(r, 'Weekly themes');
          expect(column(weeks, 'Week')).toEqual(
            Array.from({ length: 13 }, (_, i) => String(i + 1)),
          );
          for (const w of column(weeks, 'Week of')) expect(w).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        },
      ],
      [
        'key dates',
        (r) =>
          expect(column(tableOf(r, 'Weekly themes'), 'Key date').join('\n')).toMatch(
            /New Year's Day|Halloween|Christmas Day|International Women's Day|End of the UK tax year/,
          ),
      ],
      [
        'delivered as a table we can share',
        (r) => {
          const rows = csvOf(r, /content-calendar\.csv$/)!;
          // The header row a spreadsheet shows.
          expect(Object.keys(rows[0]!).join(',')).toBe(
            'Week,Week of,Key date,Day,Channel,Theme,Format,Hook',
          );
          expect(new Set(column(rows, 'Week'))).toHaveProperty('size', 13);
        },
      ],
      [
        "last quarter's content performance",
        (r) => expect(headingsOf(r)).toContain("Last quarter's content, ranked"),
      ],
    ],
  },
  'Social media content plan': {
    attach: ['content-performance.csv'],
    promises: [
      [
        'a month of social media posts for LinkedIn and Instagram',
        (r) => {
          const posts = csvOf(r, /social-media-plan\.csv$/)!;
          expect(posts).toHaveLength(24);
          expect(posts.filter((p) => p.Channel === 'LinkedIn')).toHaveLength(12);
        },
      ],
      [
        'post ideas, copy drafts, best posting days and a mix of formats',
        (r) => {
          // Past posts by weekday, by hand: LinkedIn Tue (2260+690)/(18800+9900) = 10.3% beats Thu 10.0%; Instagram only Saturdays.
          expect(firstText(r)).toContain(
            'LinkedIn Tuesday (highest engagement per impression in content-performance.csv (10.3%))',
          );
          expect(firstText(r)).toContain('Instagram Saturday');
          expect(headingsOf(r)).toContain('Format mix');
          for (const draft of column(tableOf(r, 'Posts'), 'Copy draft')) expect(draft).not.toBe('');
        },
      ],
    ],
  },
  'Content performance audit': {
    attach: ['content-performance.csv'],
    promises: [
      [
        'rank posts and articles by engagement and conversion',
        (r) => {
          const rows = B.CONTENT_PERFORMANCE_CSV.split('\n')
            .slice(1)
            .map((l) => l.split(','));
          const ranked = rows
            .map((c) => ({ title: c[0]!, rate: Number(c[6]) / Number(c[5]) }))
            .sort((a, b) => b.rate - a.rate);
          const table = tableOf(r, 'Posts and articles ranked by engagement and conversion');
          expect(column(table, 'Title')).toEqual(ranked.map((x) => x.title));
        },
      ],
      [
        'find the best topics, formats and days',
        (r) => {
          const [topics, formats, days] = tablesOf(r, 'Best topics, formats and days');
          // Cash flow, by hand: (410+2260+370)/(8200+18800+7400) = 8.8%, 59 conversions.
          expect(rowOf(topics!, 'Cash flow')).toEqual({
            Topic: 'Cash flow',
            Items: '3',
            'Engagement rate': pct(410 + 2260 + 370, 8200 + 18800 + 7400),
            Conversions: '59',
          });
          expect(Object.keys(formats![0]!)).toEqual([
            'Format',
            'Items',
            'Engagement rate',
            'Conversions',
          ]);
          expect(days![0]!.Day).toBe('Tuesday');
        },
      ],
      [
        'recommend what to do more and less of',
        (r) => {
          expect(texts(r.content)).toMatch(/\*\*Do more of:\*\* /);
          expect(texts(r.content)).toMatch(/\*\*Do less of:\*\* [^\n]*Behind the scenes/);
        },
      ],
    ],
  },
  'Competitor positioning map': {
    attach: ['competitor-notes.md'],
    extra: ' Competitors: Paydash, Ledgerly, Coinstack.',
    promises: [
      [
        'their claims, audience, price point and tone',
        (r) => {
          const t = tableOf(r, 'Claims, audience, price point and tone');
          const paydash = rowOf(t, 'Paydash')!;
          expect(paydash.Claims).toBe(
            '"The fastest payouts in Europe"; "Enterprise-grade security"',
          );
          expect(paydash.Audience).toBe('mid-size and enterprise finance teams');
          expect(paydash['Price point']).toBe('from £49 per month plus 1% per transaction');
          expect(paydash.Tone).toMatch(/^formal and technical/);
          expect(cell(t, 'Ledgerly', 'Claims')).toBe('"Accounting that does itself"');
          expect(cell(t, 'Ledgerly', 'Audience')).toMatch(/^accountants and bookkeepers/);
          expect(cell(t, 'Coinstack', 'Price point')).toMatch(/free plan; 2\.9% per card payment/);
        },
      ],
      [
        'where there is open space',
        (r) => {
          const open = sectionOf(r, 'Where there is open space for us');
          expect(open).toContain('**Human support**');
          expect(open).toContain('**Small business focus**');
          expect(open).not.toContain('**Speed**');
        },
      ],
    ],
  },
  'Competitor messaging teardown': {
    attach: ['competitor-page.html', 'our-page.html'],
    promises: [
      [
        'the promise, proof, tone and calls to action',
        (r) => {
          const page = rowOf(
            tableOf(r, 'Promise, proof, tone and calls to action'),
            'competitor-page.html',
          )!;
          expect(page.Promise).toBe('"The fastest payouts in Europe"');
          expect(page.Proof).toMatch(/^Trusted by 4,000 companies/);
          expect(page.Tone).toMatch(/jargon: .*end-to-end/);
          expect(page['Calls to action']).toBe('"Book a demo", "See pricing"');
        },
      ],
      [
        'how our copy compares',
        (r) => {
          const t = sectionOf(r, 'How our copy compares');
          expect(t).toContain('ours "Get paid the moment your customer pays"');
          expect(t).toContain('ours "Start free today"');
        },
      ],
    ],
  },
  'Share of voice report': {
    attach: ['mentions.csv'],
    promises: [
      [
        'share of voice against competitors by channel and month',
        (r) => {
          const f = B.MENTIONS_FACTS;
          const byMonth = tableOf(r, 'By month');
          for (const [m, s] of Object.entries(f.monthly))
            expect(cell(byMonth, m, 'Share of voice')).toBe(`${s}%`);
          const byChannel = tableOf(r, 'By channel');
          for (const [ch, s] of Object.entries(f.byChannel))
            expect(cell(byChannel, ch, 'Share of voice')).toBe(`${Math.round(s * 10) / 10}%`);
        },
      ],
      [
        'with a chart',
        (r) => {
          const chart = chartOf(r, 'Share of voice by month (%)');
          expect(chart.labels).toEqual(Object.keys(B.MENTIONS_FACTS.monthly));
          expect(chart.series[B.MENTIONS_FACTS.us]).toEqual(
            Object.values(B.MENTIONS_FACTS.monthly),
          );
        },
      ],
      [
        'the moments where we gained or lost ground',
        (r) => {
          const m = sectionOf(r, 'Where we gained or lost ground');
          expect(m).toContain(`${B.MENTIONS_FACTS.gained}: gained 23.3 points`);
          expect(m).toContain(`${B.MENTIONS_FACTS.lost}: lost 33.3 points`);
        },
      ],
    ],
  },
  'Brand perception survey analysis': {
    attach: ['perception-survey.csv'],
    promises: [
      [
        'awareness, consideration',
        (r) =>
          expect(firstText(r)).toContain(
            `${Math.round(B.SURVEY_FACTS.overallAwareness * 10) / 10}% of 12 respondents know the brand`,
          ),
      ],
      [
        'how results differ by segment',
        (r) => {
          const seg = tableOf(r, 'By segment');
          const share = (n: number) => `${Math.round(n * 10) / 10}%`;
          for (const [s, a] of Object.entries(B.SURVEY_FACTS.awareness)) {
            expect(cell(seg, s, 'Awareness')).toBe(share(a));
            expect(cell(seg, s, 'Consideration')).toBe(
              share(B.SURVEY_FACTS.consideration[s as keyof typeof B.SURVEY_FACTS.consideration]),
            );
          }
        },
      ],
      [
        'the attributes people associate with us',
        (r) =>
          expect(
            rowOf(tableOf(r, 'Attributes associated with the brand'), B.SURVEY_FACTS.topAttribute),
          ).toEqual({
            Attribute: B.SURVEY_FACTS.topAttribute,
            Mentions: '4',
            'Share of respondents': '33.3%',
          }),
      ],
      [
        'with charts',
        (r) =>
          expect(chartTitles(r)).toEqual(
            expect.arrayContaining([
              'Awareness and consideration by segment (%)',
              'Attributes associated with the brand',
            ]),
          ),
      ],
    ],
  },
  'Brand guidelines compliance check': {
    attach: ['brand-guidelines.docx', 'spring-materials.md'],
    promises: [
      [
        'logo use, colours, typography, tone and legal lines',
        (r) => {
          const t = tableOf(r, 'Item by item');
          const email = rowOf(t, 'Item 1: Spring promotional e-mail')!;
          expect([email['Logo use'], email.Colours, email.Typography]).toEqual([
            '✅ follows',
            '✅ follows',
            '✅ follows',
          ]);
          expect(email.Tone).toMatch(/^Banned word "best-in-class".*"staff".*"assist"/);
          expect(email['Legal lines']).toMatch(
            /^Missing the legal line for promotional e-mail.*Terms apply/,
          );
          const post = rowOf(t, 'Item 2: Instagram post')!;
          expect(post['Logo use']).toMatch(/^Logo stretched/);
          expect(post.Colours).toMatch(/^#FF5733 is not in the palette/);
          const poster = rowOf(t, 'Item 3: Poster for the Leeds office')!;
          expect([poster['Logo use'], poster.Colours]).toEqual(['✅ follows', '✅ follows']);
          expect(poster.Typography).toMatch(/^Arial is not allowed/);
        },
      ],
      [
        'with a list of fixes per item',
        (r) => {
          const fixes = fileOf(r, /brand-compliance-fixes\.md$/);
          expect(fixes).toMatch(/## Item 2: Instagram post\n\n- \[ \] Use the master logo/);
          expect(fixes).toContain('Replace #FF5733 with a palette colour');
        },
      ],
    ],
  },
};

describe('brand hub starters: each gets what its text promises', () => {
  it('has a case for every seeded brand hub starter', () => {
    expect(starters.map((s) => s.name).sort()).toEqual(Object.keys(CASES).sort());
  });
  for (const starter of starters) {
    const c = CASES[starter.name]!;
    it(
      starter.name,
      async () => {
        const { report, thinking } = await ask(
          `Help me with: ${starter.description}${c.extra ?? ''}`,
          c.attach.map(doc),
        );
        expect(thinking.some((t) => /^Running [a-z_]+/.test(t))).toBe(true);
        for (const [phrase, check] of c.promises) {
          expect(starter.description).toContain(phrase);
          check(report);
        }
      },
      60_000,
    );
  }
});

describe('copy in other languages and honest answers', () => {
  it('does not give an English readability score or word lists on German copy, and says so', async () => {
    const { report } = await ask('Review this copy against our brand voice', [
      doc('kampagne-de.txt'),
    ]);
    expect(firstText(report)).toContain(
      'It reads as German: the readability score, passive voice and English word lists do not apply to German and are not given',
    );
    const summary = tableOf(report, 'Scored summary: kampagne-de.txt');
    const result = (measure: string) => cell(summary, measure, 'Result');
    expect(result('Reading level (Flesch reading ease)')).toBe('not given (German)');
    expect(result('Banned words')).toBe('not checked (English list)');
    expect(result('Average sentence length')).toMatch(/^[\d.]+ words$/);
    if (headingsOf(report).includes('Rewritten version'))
      expect(sectionOf(report, 'Rewritten version')).not.toMatch(/^The preferred wording/);
  });

  it('uses the guidelines from an earlier message for copy sent later in the chat', async () => {
    const first = await ask('Here are our brand guidelines', [doc('brand-guidelines.docx')]);
    expect(firstText(first.report)).toMatch(/Only the guidelines|To do this I need/);
    const before: HistoryMessage[] = [
      userMessage('Here are our brand guidelines', [doc('brand-guidelines.docx')]),
      { role: 'assistant', text: JSON.stringify(first.report), attachments: [] },
    ];
    const { report } = await ask(
      'Review this copy:\n```\nOur staff leverage synergies so users can purchase faster.\n```',
      [],
      before,
    );
    expect(texts(report.content)).toContain('Rules applied from **brand-guidelines.docx**');
    expect(firstText(report)).toMatch(/"leverage"[^\n]*"synergies"/);
  });

  it('a clicked next step gives a new answer on the same files, not the review again', async () => {
    const files = [doc('sample-1.md'), doc('sample-2.md')];
    const first = await ask('Review this copy against our brand voice', files);
    const step = nextStepsOf(first.report).find((s) => /tone of voice guide/.test(s))!;
    expect(step).toBe('Write a tone of voice guide from our best copy');
    const next = await ask(
      step,
      [],
      [
        userMessage('Review this copy against our brand voice', files),
        { role: 'assistant', text: JSON.stringify(first.report), attachments: [] },
      ],
    );
    expect(next.report.task_name).toBe('Tone of voice guide');
    expect(firstText(next.report)).toMatch(/^\*\*Our voice in three words: /);
  });

  it('says what it needs when the copy is missing', async () => {
    const { report } = await ask('Help me with: reviewing a piece of copy against our brand voice');
    expect(firstText(report)).toMatch(/^To do this I need the copy/);
  });
});

describe('every starter without a file', () => {
  for (const starter of starters) {
    it(`${starter.name}: drafts what it can or says what to attach`, async () => {
      const { report } = await ask(`Help me with: ${starter.description}`);
      expect(firstText(report).length).toBeGreaterThan(80);
      // Next steps only where a deeper answer exists; a deliverable or an honest paragraph always.
      // Either a deliverable, or one honest paragraph saying what it can do instead.
      if (!report.content.some((c) => c.type === 'file' || c.type === 'chart'))
        expect(firstText(report)).toMatch(/What I can do:/);
    });
  }
});

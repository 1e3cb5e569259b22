import { withoutStarterPrefix } from '../../report/words';
import { escapeHtml, htmlPage, htmlTable, markdownTable } from '../../tools/reports';
import { mentions } from '../module';

/** Campaign brief and content calendar generators, driven by what the request says. */

export interface BriefInput {
  subject: string;
  audience: string | null;
  channels: string[];
  weeks: number;
  goal: string | null;
  /** The one-sentence proposition, when the message states one ("proposition: ..."). */
  proposition: string | null;
  /** Total budget as written ("£40,000"), and its value. */
  budget: { written: string; value: number } | null;
}

/** Paid channels carry most of a budget; owned channels less; 10% is kept as contingency. */
const CHANNEL_WEIGHT: Record<string, number> = {
  'Paid search': 3,
  LinkedIn: 2,
  Instagram: 2,
  TikTok: 2,
  Facebook: 2,
  'X (Twitter)': 1,
  YouTube: 2,
  Events: 2,
  PR: 1,
  Podcast: 1,
  Email: 0.5,
  Blog: 0.5,
};

/** The budget split by channel in whole percentages that add up to 100 (10% contingency). */
export function budgetSplit(channels: string[]): Array<{ channel: string; percent: number }> {
  const weights = channels.map((c) => CHANNEL_WEIGHT[c] ?? 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (w / total) * 90);
  const rounded = raw.map(Math.floor);
  // Largest remainders get the leftover points, so the split adds up to exactly 90.
  let left = 90 - rounded.reduce((a, b) => a + b, 0);
  raw
    .map((r, i) => ({ i, rem: r - Math.floor(r) }))
    .sort((a, b) => b.rem - a.rem)
    .forEach(({ i }) => {
      if (left > 0) {
        rounded[i]!++;
        left--;
      }
    });
  return [
    ...channels.map((channel, i) => ({ channel, percent: rounded[i]! })),
    { channel: 'Contingency', percent: 10 },
  ];
}

function budgetLines(input: BriefInput): string[] {
  const split = budgetSplit(input.channels);
  const money = (p: number) =>
    input.budget
      ? ` (${input.budget.written.replace(/[\d,.]+\s?[km]?/i, '').trim() || '£'}${Math.round((input.budget.value * p) / 100).toLocaleString('en-GB')})`
      : '';
  return [
    input.budget
      ? `Total: ${input.budget.written}.`
      : 'Total: [budget]. The split below is a starting point by channel type; adjust it to your costs.',
    '',
    '| Channel | Share | Amount |',
    '| --- | --- | --- |',
    ...split.map(
      (s) =>
        `| ${s.channel} | ${s.percent}% | ${money(s.percent).replace(/^ \(|\)$/g, '') || '[amount]'} |`,
    ),
  ];
}

const CHANNELS: Array<[string, string[]]> = [
  ['Email', ['email', 'newsletter', 'e-mail']],
  ['LinkedIn', ['linkedin']],
  ['Instagram', ['instagram', 'reels']],
  ['TikTok', ['tiktok']],
  ['X (Twitter)', ['twitter', 'x.com']],
  ['Facebook', ['facebook']],
  ['YouTube', ['youtube', 'video']],
  ['Blog', ['blog', 'article', 'articles', 'seo']],
  ['Paid search', ['paid search', 'ppc', 'google ads', 'sem']],
  ['Events', ['event', 'events', 'webinar', 'webinars']],
  ['PR', ['press', 'pr', 'media relations']],
  ['Podcast', ['podcast']],
];

export function briefInputFrom(request: string): BriefInput {
  const clean = withoutStarterPrefix(request).trim();
  const subject =
    /\b(?:for|about|launching|launch of|promote|promoting)\s+(?:our|the|a|an)?\s*([A-Z0-9][\w&'’ -]{1,50}?|[a-z][\w&'’ -]{2,50}?)(?=\s+(?:to|targeting|aimed|for|aimed at|in|on|with|over|across)\b|[,.;:\n]|$)/
      .exec(clean)?.[1]
      ?.trim() ?? null;
  const audience =
    /\b(?:targeting|aimed at|audience(?: is|:)?|for an audience of)\s+(.{3,80}?)(?=\s+(?:on|via|across|through|over|as|in|with)\b|[,.;\n]|$)/i
      .exec(clean)?.[1]
      ?.trim() ?? null;
  const goal =
    /\b(?:goal|objective|to (?:drive|increase|grow|build|boost|generate|raise))\b[: ]*([^.;\n]{3,100})/i
      .exec(clean)?.[0]
      ?.trim() ?? null;
  // Whole words only: "pr" must not match "proposition".
  const channels = CHANNELS.filter(([, keys]) =>
    keys.some((k) =>
      new RegExp(`(^|[^a-z0-9])${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`, 'i').test(
        clean,
      ),
    ),
  ).map(([name]) => name);
  const weeksMatch = /(\d{1,2})[- ]weeks?/i.exec(clean);
  const weeks = weeksMatch
    ? Math.min(13, Math.max(1, Number(weeksMatch[1])))
    : mentions(clean, ['quarter', 'quarterly', '90 days'])
      ? 13
      : 4;
  const budgetMatch = /([£$€])\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m)?\b/i.exec(clean);
  const budget = budgetMatch
    ? {
        written: budgetMatch[0].trim(),
        value:
          Number(budgetMatch[2]!.replace(/,/g, '')) *
          (budgetMatch[3]?.toLowerCase() === 'k'
            ? 1000
            : budgetMatch[3]?.toLowerCase() === 'm'
              ? 1_000_000
              : 1),
      }
    : null;
  const proposition =
    /\b(?:proposition|key message|promise)\s*(?:is|:)\s*["“]?([^"”\n]{5,160})["”]?/i
      .exec(clean)?.[1]
      ?.trim() ?? null;
  return {
    proposition,
    budget,
    subject: subject && !/^(me|us|this|that|it)$/i.test(subject) ? subject : 'the campaign',
    audience,
    channels: channels.length ? channels : ['Email', 'LinkedIn', 'Instagram', 'Blog'],
    weeks,
    goal,
  };
}

export function wantsHtml(request: string): boolean {
  return mentions(request, ['html', 'web page', 'webpage', 'landing page']);
}

interface Section {
  heading: string;
  body: string[];
}

function briefSections(input: BriefInput, voiceTraits: string[]): Section[] {
  const subject = input.subject;
  return [
    {
      heading: 'Background',
      body: [
        `Why ${subject} needs a campaign now: [market context, what changed, what we learned last time].`,
      ],
    },
    {
      heading: 'Objective',
      body: [
        input.goal
          ? `${input.goal.charAt(0).toUpperCase()}${input.goal.slice(1)}.`
          : `[One measurable objective, e.g. 2,000 qualified sign-ups for ${subject} in ${input.weeks} weeks].`,
      ],
    },
    {
      heading: 'Audience',
      body: [
        input.audience
          ? `Primary: ${input.audience}.`
          : 'Primary: [who they are, what they need, what stops them today].',
        'Secondary: [influencers, buyers, partners].',
      ],
    },
    {
      heading: 'Single-minded proposition',
      body: [
        input.proposition
          ? `${input.proposition}`
          : `[The one thing we want ${input.audience ?? 'the audience'} to believe about ${subject}, in one sentence a customer would repeat.]`,
      ],
    },
    {
      heading: 'Key messages',
      body: [
        `- [What ${subject} does for them, in their words]`,
        '- [The proof: a fact, figure or customer quote]',
        '- [Why now: what changes if they act this month]',
      ],
    },
    {
      heading: 'Tone of voice',
      body: [
        `${voiceTraits.map((t) => t.charAt(0).toUpperCase() + t.slice(1)).join(', ')}. Short sentences, active verbs, no jargon.`,
      ],
    },
    { heading: 'Channels', body: input.channels.map((c) => `- ${c}`) },
    {
      heading: 'Deliverables',
      body: [
        '- Hero copy and headline options',
        '- Channel assets (see the content calendar)',
        '- Landing page copy',
        '- Sales or support talking points',
      ],
    },
    {
      heading: 'Timeline',
      body: Array.from(
        { length: Math.min(input.weeks, 6) },
        (_, i) =>
          `- Week ${i + 1}: ${['Brief sign-off and creative kickoff', 'Copy and design drafts', 'Review and approvals', 'Launch', 'Optimise on early results', 'Wrap-up and report'][i]}`,
      ),
    },
    { heading: 'Budget split', body: budgetLines(input) },
    {
      heading: 'How we will measure success',
      body: [
        '| Measure | Target | Source |',
        '| --- | --- | --- |',
        `| ${input.goal ? input.goal.replace(/\|/g, '/') : 'Primary objective (above)'} | [target] | [analytics / CRM] |`,
        '| Reach (impressions) | [target] | Channel reports |',
        '| Click-through rate | [target, e.g. 1.5%] | Channel reports |',
        '| Conversion rate and cost per acquisition | [target] | Analytics / CRM |',
        '| Brand sentiment or consideration | [target] | Survey or social listening |',
      ],
    },
    {
      heading: 'Approvals',
      body: [
        '| Role | Name | Date |',
        '| --- | --- | --- |',
        '| Brand lead | [name] | [date] |',
        '| Marketing director | [name] | [date] |',
      ],
    },
  ];
}

export function campaignBrief(
  input: BriefInput,
  voiceTraits: string[],
  html: boolean,
): { filename: string; data: string } {
  const title = `Campaign brief: ${input.subject}`;
  const sections = briefSections(input, voiceTraits);
  if (!html) {
    return {
      filename: 'campaign-brief.md',
      data: [
        `# ${title}`,
        '',
        ...sections.flatMap((s) => [`## ${s.heading}`, '', ...s.body, '']),
      ].join('\n'),
    };
  }
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    ...sections.map((s) => `<h2>${escapeHtml(s.heading)}</h2>\n${htmlBlock(s.body)}`),
  ].join('\n');
  return { filename: 'campaign-brief.html', data: htmlPage(title, body) };
}

/** Markdown-ish lines (bullets, a table) as HTML. */
function htmlBlock(lines: string[]): string {
  if (lines.every((l) => l.startsWith('- ')))
    return `<ul>${lines.map((l) => `<li>${escapeHtml(l.slice(2))}</li>`).join('')}</ul>`;
  if (lines[0]?.startsWith('|')) {
    const rows = lines
      .filter((l) => !/^\|\s*-/.test(l))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    return htmlTable(rows[0]!, rows.slice(1));
  }
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
}

const THEMES = [
  'Problem we solve',
  'Customer story',
  'How it works',
  'Behind the scenes',
  'Tips and how-tos',
  'Social proof',
  'Offer or call to action',
  'Community question',
];
const FORMATS: Record<string, string> = {
  Email: 'Newsletter',
  LinkedIn: 'Post with image',
  Instagram: 'Carousel',
  TikTok: 'Short video',
  'X (Twitter)': 'Thread',
  Facebook: 'Post',
  YouTube: 'Video',
  Blog: 'Article',
  'Paid search': 'Ad group',
  Events: 'Webinar',
  PR: 'Press release',
  Podcast: 'Episode',
};
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

export interface CalendarRow {
  week: number;
  /** Monday of the week (ISO). */
  weekOf: string;
  /** A key date in that week, when there is one. */
  keyDate: string | null;
  day: string;
  channel: string;
  theme: string;
  format: string;
  hook: string;
}

/** Fixed-date moments a UK brand plans around (month 1-12, day). */
const KEY_DATES: Array<[number, number, string]> = [
  [1, 1, "New Year's Day"],
  [1, 31, 'UK self-assessment tax deadline'],
  [2, 14, "Valentine's Day"],
  [3, 8, "International Women's Day"],
  [4, 5, 'End of the UK tax year'],
  [4, 22, 'Earth Day'],
  [6, 5, 'World Environment Day'],
  [9, 1, 'Back to school and work'],
  [10, 10, 'World Mental Health Day'],
  [10, 31, 'Halloween'],
  [11, 11, "Singles' Day"],
  [12, 25, 'Christmas Day'],
  [12, 31, "New Year's Eve"],
];

/** The Monday starting the next calendar quarter after `today`. */
export function nextQuarterStart(today: Date): Date {
  const q = Math.floor(today.getUTCMonth() / 3) + 1;
  const first = new Date(Date.UTC(today.getUTCFullYear() + (q === 4 ? 1 : 0), (q % 4) * 3, 1));
  const back = (first.getUTCDay() + 6) % 7;
  return new Date(first.getTime() - back * 86_400_000);
}

/** One theme a week across every channel, with the week's Monday and any key date in it. */
export function calendarRows(
  input: BriefInput,
  start: Date = nextQuarterStart(new Date()),
): CalendarRow[] {
  const rows: CalendarRow[] = [];
  for (let week = 1; week <= input.weeks; week++) {
    const monday = new Date(start.getTime() + (week - 1) * 7 * 86_400_000);
    const days = Array.from({ length: 7 }, (_, d) => new Date(monday.getTime() + d * 86_400_000));
    const key = KEY_DATES.find(([m, d]) =>
      days.some((x) => x.getUTCMonth() + 1 === m && x.getUTCDate() === d),
    );
    const theme = key ? `${key[2]}` : THEMES[(week - 1) % THEMES.length]!;
    input.channels.forEach((channel, i) => {
      rows.push({
        week,
        weekOf: monday.toISOString().slice(0, 10),
        keyDate: key
          ? `${key[2]} (${key[1]} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][key[0] - 1]})`
          : null,
        day: DAYS[(i * 2 + week - 1) % DAYS.length]!,
        channel,
        theme,
        format: FORMATS[channel] ?? 'Post',
        hook: `${theme}: [hook about ${input.subject}]`,
      });
    });
  }
  return rows;
}

export function contentCalendar(
  input: BriefInput,
  html: boolean,
): { filename: string; data: string; rows: CalendarRow[] } {
  const rows = calendarRows(input);
  const title = `Content calendar: ${input.subject} (${input.weeks} weeks)`;
  const headers = [
    'Week',
    'Week of',
    'Key date',
    'Day',
    'Channel',
    'Theme',
    'Format',
    'Hook',
    'Owner',
    'Status',
  ];
  const cells = rows.map((r) => [
    `Week ${r.week}`,
    r.weekOf,
    r.keyDate ?? '',
    r.day,
    r.channel,
    r.theme,
    r.format,
    r.hook,
    '[owner]',
    'Planned',
  ]);
  if (html) {
    return {
      filename: 'content-calendar.html',
      data: htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n${htmlTable(headers, cells)}`),
      rows,
    };
  }
  return {
    filename: 'content-calendar.md',
    data: [`# ${title}`, '', markdownTable(headers, cells), ''].join('\n'),
    rows,
  };
}

import { escapeHtml, htmlPage, htmlTable, markdownTable } from '../../tools/reports';
import { mentions } from '../module';

/** Campaign brief and content calendar generators, driven by what the request says. */

export interface BriefInput {
  subject: string;
  audience: string | null;
  channels: string[];
  weeks: number;
  goal: string | null;
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
  const clean = request.replace(/^help me with:\s*/i, '').trim();
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
  const channels = CHANNELS.filter(([, keys]) => mentions(clean, keys)).map(([name]) => name);
  const weeksMatch = /(\d{1,2})[- ]weeks?/i.exec(clean);
  const weeks = weeksMatch
    ? Math.min(12, Math.max(1, Number(weeksMatch[1])))
    : mentions(clean, ['quarter', 'quarterly', '90 days'])
      ? 12
      : 4;
  return {
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
    { heading: 'Key message', body: [`[One sentence a customer would repeat about ${subject}.]`] },
    {
      heading: 'Proof points',
      body: [
        '- [Fact, figure or customer quote]',
        '- [Fact, figure or customer quote]',
        '- [Fact, figure or customer quote]',
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
    { heading: 'Budget', body: ['[Total], split by channel: [...]'] },
    {
      heading: 'Success measures (KPIs)',
      body: [
        '- Reach and impressions',
        '- Click-through and conversion rate',
        '- Cost per acquisition',
        '- Brand sentiment',
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
  day: string;
  channel: string;
  theme: string;
  format: string;
  hook: string;
}

export function calendarRows(input: BriefInput): CalendarRow[] {
  const rows: CalendarRow[] = [];
  let t = 0;
  for (let week = 1; week <= input.weeks; week++) {
    input.channels.forEach((channel, i) => {
      const theme = THEMES[t++ % THEMES.length]!;
      rows.push({
        week,
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
  const headers = ['Week', 'Day', 'Channel', 'Theme', 'Format', 'Hook', 'Owner', 'Status'];
  const cells = rows.map((r) => [
    `Week ${r.week}`,
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

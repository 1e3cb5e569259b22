import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { competitorsFrom, hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { readDocs, type Doc } from '../read';

const Output = z.object({
  source: z.string(),
  competitors: z.array(
    z.object({
      name: z.string(),
      claims: z.array(z.string()),
      audience: z.string().nullable(),
      price: z.string().nullable(),
      tone: z.string().nullable(),
      themes: z.array(z.string()),
    }),
  ),
  notFound: z.array(z.string()),
  openSpace: z.array(z.object({ theme: z.string(), why: z.string() })),
});
export type PositioningMap = z.infer<typeof Output>;
type CompetitorProfile = PositioningMap['competitors'][number];

/** The positioning themes a payments or software brand competes on, with the words that claim them. */
const THEMES: Array<[string, RegExp]> = [
  ['Speed', /\b(fast|fastest|instant|quick|minutes|real-time|speed)\b/i],
  ['Price', /\b(cheap|free|low cost|affordable|£\d|per month|no fee|price)\b/i],
  ['Simplicity', /\b(simple|easy|does itself|effortless|one place|no setup)\b/i],
  ['Security and trust', /\b(secure|security|enterprise-grade|trusted|safe|regulated|fca)\b/i],
  ['Human support', /\b(support|real person|people|help|service|talk to)\b/i],
  ['Small business focus', /\b(small business|sole trader|freelancer|startup|independent)\b/i],
  ['Enterprise focus', /\b(enterprise|mid-size|finance teams|corporate)\b/i],
];

function blocks(doc: Doc): Array<{ name: string; body: string }> {
  const out: Array<{ name: string; body: string }> = [];
  let cur: { name: string; lines: string[] } | null = null;
  for (const line of doc.text.split('\n')) {
    const h =
      /^#{1,4}\s+(.+)$/.exec(line.trim()) ??
      (/^[A-Z][\w&.' -]{1,30}$/.test(line.trim()) && !/[.:]$/.test(line.trim())
        ? [line, line.trim()]
        : null);
    if (h) {
      if (cur) out.push({ name: cur.name, body: cur.lines.join('\n') });
      cur = { name: h[1]!.trim(), lines: [] };
    } else if (cur) cur.lines.push(line);
  }
  if (cur) out.push({ name: cur.name, body: cur.lines.join('\n') });
  return out;
}

const field = (body: string, re: RegExp) => re.exec(body)?.[1]?.trim().replace(/\.$/, '') ?? null;

/**
 * A positioning map from notes or copy about competitors: per competitor, the claims (quoted
 * lines), audience, price point and tone as the notes state them, the themes they claim, and the
 * themes no competitor claims: the open space.
 */
const tool = defineTool({
  name: 'competitor_positioning',
  description:
    "Map competitors' positioning from attached notes or copy: each competitor's claims, audience, price point and tone, the themes they claim (speed, price, simplicity, trust, support, small business or enterprise focus), and the open space no competitor claims. `competitors` are the names listed in the message.",
  input: z.object({ competitors: z.array(z.string().max(80)).max(12).default([]) }),
  async run(ctx, { competitors }): Promise<PositioningMap> {
    const { docs, problems } = await readDocs(ctx);
    if (!docs.length)
      throw new ToolError(problems[0] ?? 'No notes or competitor copy are attached.');
    const all = docs.flatMap(blocks);
    const wanted = competitors.length
      ? competitors
      : all
          .map((b) => b.name)
          .filter((n) => !/notes|competitor|summary|overview|us$|our /i.test(n));
    const profiles: CompetitorProfile[] = [];
    const notFound: string[] = [];
    for (const name of wanted) {
      const b = all.find((x) => x.name.toLowerCase().includes(name.toLowerCase()));
      if (!b) {
        notFound.push(name);
        continue;
      }
      // Claims are the quoted lines of a "claims:" line; other quotes (in tone notes) are not claims.
      const claimLine = /\bclaims?\s*:\s*(.+)/i.exec(b.body)?.[1] ?? b.body;
      const claims = [...claimLine.matchAll(/["“]([^"”]{3,120})["”]/g)].map((m) => m[1]!);
      profiles.push({
        name: b.name,
        claims,
        audience: field(b.body, /\b(?:audience|target|for|customers?)\s*:\s*(.+)/i),
        price: field(b.body, /\b(?:price|pricing|cost)\s*:\s*(.+)/i),
        tone: field(b.body, /\b(?:tone|voice|style)\s*:\s*(.+)/i),
        themes: THEMES.filter(([, re]) =>
          re.test(
            `${claims.join(' ')} ${field(b.body, /\b(?:audience|target)\s*:\s*(.+)/i) ?? ''}`,
          ),
        ).map(([t]) => t),
      });
    }
    const claimed = new Set(profiles.flatMap((p) => p.themes));
    const openSpace = THEMES.filter(([t]) => !claimed.has(t)).map(([t]) => ({
      theme: t,
      why: `none of ${profiles.map((p) => p.name).join(', ')} claims it`,
    }));
    return {
      source: docs.map((d) => d.fileName).join(', '),
      competitors: profiles,
      notFound,
      openSpace,
    };
  },
});

const task = {
  key: 'positioning',
  title: 'Competitor positioning map',
  words: /\b(positioning|competitors?|competitive)\b/i,
  needs:
    'notes or copy on each competitor (PDF, DOCX, HTML or text), and their names in your message',
  sample: ['positioning-template.csv', 'Competitor,Claims,Audience,Price point,Tone\n'],
} as const;

function render(p: PositioningMap): Section {
  const competitors = table<PositioningMap['competitors'][number]>(
    [
      { header: 'Competitor', value: (c) => c.name },
      { header: 'Claims', value: (c) => c.claims.map((x) => `"${x}"`).join('; ') || '—' },
      { header: 'Audience', value: (c) => c.audience ?? '—' },
      { header: 'Price point', value: (c) => c.price ?? '—' },
      { header: 'Tone', value: (c) => c.tone ?? '—' },
      { header: 'Themes claimed', value: (c) => c.themes.join(', ') || '—' },
    ],
    p.competitors,
  );
  const lines = [
    '### Claims, audience, price point and tone',
    '',
    competitors.markdown(),
    '',
    '### Where there is open space for us',
    '',
    p.openSpace.map((o) => `- **${o.theme}**: ${o.why}.`).join('\n') ||
      '- Every theme is claimed: differentiate on proof rather than on the claim.',
  ];
  return section(task.title, {
    answer: [
      `**Open space: ${p.openSpace.length ? list(p.openSpace.map((o) => o.theme.toLowerCase())) : 'none'}**: no competitor in your notes claims ${p.openSpace.length === 1 ? 'it' : 'them'}. ${p.competitors.map((c) => `${c.name} claims ${c.themes.length ? list(c.themes.map((t) => t.toLowerCase())) : 'nothing distinctive'}`).join('; ')}.${p.notFound.length ? ` Not in the notes: ${p.notFound.join(', ')}.` : ''}`,
    ],
    content: laidOut(
      lines,
      [],
      [
        // The file quotes every cell and leaves the claims unquoted inside (ADR 0087).
        file(
          'competitor-positioning.csv',
          `Competitor,Claims,Audience,Price point,Tone,Themes\n${p.competitors.map((c) => [c.name, c.claims.join('; '), c.audience ?? '', c.price ?? '', c.tone ?? '', c.themes.join('; ')].map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`,
        ),
      ],
    ),
  });
}

export const competitorPositioning = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) =>
    hasDocuments(ctx)
      ? [{ tool: tool.name, input: { competitors: competitorsFrom(ctx.request) } }]
      : [],
  render,
});

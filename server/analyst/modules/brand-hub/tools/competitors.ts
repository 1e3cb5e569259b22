import { z } from 'zod';
import { passivePhrase, sentencesOf } from '../../../tools/language';
import { defineTool, ToolError } from '../../../tools/tool';
import { fleschReadingEase, words } from '../copy-review';
import { readDocs, type Doc } from '../read';

export interface CompetitorProfile {
  name: string;
  claims: string[];
  audience: string | null;
  price: string | null;
  tone: string | null;
  themes: string[];
}
export interface PositioningMap {
  source: string;
  competitors: CompetitorProfile[];
  notFound: string[];
  openSpace: Array<{ theme: string; why: string }>;
}

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
export const competitorPositioning = defineTool({
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

export interface PageTeardown {
  fileName: string;
  promise: string;
  proof: string[];
  ctas: string[];
  tone: {
    avgSentenceWords: number;
    readingEase: number;
    youShare: number;
    passives: number;
    jargon: string[];
  };
}
export interface MessagingTeardown {
  theirs: PageTeardown;
  ours: PageTeardown | null;
  comparison: string[];
}

const CTA =
  /^(start|get|book|try|sign up|join|request|download|contact|see|learn|buy|talk|create|open|claim|shop|watch|apply)\b.{0,40}$/i;
const JARGON_WORDS =
  /\b(leverage\w*|end-to-end|enterprise-grade|optimi[sz]e\w*|synerg\w*|seamless|best-in-class|holistic|robust|scalable)\b/gi;

function teardown(doc: Doc): PageTeardown {
  const lines = doc.text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const body = lines.filter((l) => !CTA.test(l) || l.split(/\s+/).length > 6);
  const sents = sentencesOf(body.join('\n'));
  const ws = words(body.join(' '));
  return {
    fileName: doc.fileName,
    promise: lines[0] ?? '',
    proof: lines.filter(
      (l) => /\d|trusted by|["“].+["”]|customers? (say|love)|award/i.test(l) && !CTA.test(l),
    ),
    ctas: lines.filter((l) => CTA.test(l) && l.split(/\s+/).length <= 6),
    tone: {
      avgSentenceWords: Math.round((ws.length / Math.max(1, sents.length)) * 10) / 10,
      readingEase: fleschReadingEase(body.join('\n')),
      youShare: Math.round(
        (sents.filter((s) => /\byou(r)?\b/i.test(s)).length / Math.max(1, sents.length)) * 100,
      ),
      passives: sents.filter((s) => passivePhrase(s)).length,
      jargon: [...new Set((body.join(' ').match(JARGON_WORDS) ?? []).map((j) => j.toLowerCase()))],
    },
  };
}

/**
 * Takes a competitor's page apart (promise, proof, tone, calls to action) and compares ours
 * when attached: which file is ours comes from its name ("our", "us", the brand) or the order.
 */
export const messagingTeardown = defineTool({
  name: 'messaging_teardown',
  description:
    "Take apart a competitor's page or campaign copy (attached HTML, markdown or text): the promise, the proof (figures, logos, quotes), the tone (sentence length, reading ease, 'you' share, passives, jargon) and the calls to action; compare with our page when attached.",
  input: z.object({ ours: z.string().max(255).optional(), theirs: z.string().max(255).optional() }),
  async run(ctx, { ours, theirs }): Promise<MessagingTeardown> {
    const { docs, problems } = await readDocs(ctx);
    const pages = docs.filter((d) => !d.guidelines);
    if (!pages.length)
      throw new ToolError(
        problems[0] ??
          "No page is attached: attach the competitor's page as HTML, markdown or text.",
      );
    const ourDoc =
      (ours && pages.find((d) => d.fileName === ours)) ||
      pages.find((d) => /\b(our|ours|us)\b|^our[-_]/i.test(d.fileName)) ||
      (pages.length > 1 ? pages[1] : null) ||
      null;
    const theirDoc =
      (theirs && pages.find((d) => d.fileName === theirs)) || pages.find((d) => d !== ourDoc)!;
    const t = teardown(theirDoc);
    const o = ourDoc && ourDoc !== theirDoc ? teardown(ourDoc) : null;
    const comparison: string[] = [];
    if (o) {
      comparison.push(`Promise: theirs "${t.promise}"; ours "${o.promise}".`);
      comparison.push(
        `Proof: they show ${t.proof.length} proof line(s), we show ${o.proof.length}.`,
      );
      comparison.push(
        `Sentences: theirs average ${t.tone.avgSentenceWords} words (reading ease ${t.tone.readingEase}); ours ${o.tone.avgSentenceWords} (reading ease ${o.tone.readingEase}).`,
      );
      comparison.push(
        `Jargon: theirs ${t.tone.jargon.length ? t.tone.jargon.join(', ') : 'none'}; ours ${o.tone.jargon.length ? o.tone.jargon.join(', ') : 'none'}.`,
      );
      comparison.push(
        `Calls to action: theirs ${t.ctas.map((c) => `"${c}"`).join(', ') || 'none'}; ours ${o.ctas.map((c) => `"${c}"`).join(', ') || 'none'}.`,
      );
      if (o.proof.length < t.proof.length)
        comparison.push('We show less proof: add a customer quote or a named customer.');
    }
    return { theirs: t, ours: o, comparison };
  },
});

import { z } from 'zod';
import { passivePhrase, sentencesOf } from '../../../tools/language';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { fleschReadingEase, words } from '../copy-review';
import { readDocs, type Doc } from '../read';

const Page = z.object({
  fileName: z.string(),
  promise: z.string(),
  proof: z.array(z.string()),
  ctas: z.array(z.string()),
  tone: z.object({
    avgSentenceWords: z.number(),
    readingEase: z.number(),
    youShare: z.number(),
    passives: z.number(),
    jargon: z.array(z.string()),
  }),
});
const Output = z.object({
  theirs: Page,
  ours: Page.nullable(),
  comparison: z.array(z.string()),
});
export type MessagingTeardown = z.infer<typeof Output>;
type PageTeardown = z.infer<typeof Page>;

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
const tool = defineTool({
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

const task = {
  key: 'teardown',
  title: 'Competitor messaging teardown',
  words: /\b(teardown|tear down|taking apart|take apart|their homepage)\b/i,
  needs: "the competitor's page and ours (HTML, markdown or text)",
  sample: [
    'teardown-template.md',
    '# Messaging teardown\n\n| | Theirs | Ours |\n| --- | --- | --- |\n| Promise | | |\n| Proof | | |\n| Tone | | |\n| Calls to action | | |\n',
  ],
} as const;

type Page = MessagingTeardown['theirs'];

function render(t: MessagingTeardown): Section {
  const pages = table<Page>(
    [
      { header: 'Page', value: (x) => x.fileName },
      { header: 'Promise', value: (x) => `"${x.promise}"` },
      { header: 'Proof', value: (x) => x.proof.join('; ') || 'none' },
      {
        header: 'Tone',
        value: (x) =>
          `${x.tone.avgSentenceWords} words a sentence, reading ease ${x.tone.readingEase}, ${x.tone.youShare}% "you", ${x.tone.passives} passive${x.tone.jargon.length ? `, jargon: ${x.tone.jargon.join(', ')}` : ''}`,
      },
      { header: 'Calls to action', value: (x) => x.ctas.map((c) => `"${c}"`).join(', ') || 'none' },
    ],
    [t.theirs, ...(t.ours ? [t.ours] : [])],
  );
  return section(`${task.title}: ${t.theirs.fileName}`, {
    answer: [
      `**Their promise: "${t.theirs.promise}".** Proof: ${t.theirs.proof.length} line(s); calls to action: ${t.theirs.ctas.map((c) => `"${c}"`).join(', ') || 'none'}.${t.ours ? ` Ours promises "${t.ours.promise}".` : ' Attach our page to compare.'}`,
    ],
    content: laidOut([
      '### Promise, proof, tone and calls to action',
      '',
      pages.markdown(),
      ...(t.comparison.length
        ? ['', '### How our copy compares', '', ...t.comparison.map((c) => `- ${c}`)]
        : []),
    ]),
    nextSteps: ['Rewrite our hero copy to answer their promise'],
  });
}

export const messagingTeardown = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => (hasDocuments(ctx) ? [{ tool: tool.name, input: {} }] : []),
  render,
});

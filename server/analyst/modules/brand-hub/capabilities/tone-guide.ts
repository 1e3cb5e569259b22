import { z } from 'zod';
import { detectLanguage, findTerm, passivePhrase, sentencesOf } from '../../../tools/language';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { file } from '../../../tools/reports';
import { hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { fleschReadingEase, words } from '../copy-review';
import { DEFAULT_BANNED, JARGON } from '../guidelines';
import { readDocs } from '../read';

const Output = z.object({
  samples: z.array(z.string()),
  measures: z.object({
    avgSentenceWords: z.number(),
    youPerSentence: z.number(),
    contractionsPer100Words: z.number(),
    readingEase: z.number(),
    passiveShare: z.number(),
    exclamations: z.number(),
  }),
  threeWords: z.array(z.object({ word: z.string(), because: z.string() })),
  dos: z.array(z.string()),
  donts: z.array(z.object({ example: z.string(), why: z.string(), fromSamples: z.boolean() })),
  preferredWords: z.array(z.string()),
  bannedWords: z.array(z.string()),
  guide: z.string(),
});
export type ToneGuide = z.infer<typeof Output>;

const STOP = new Set(
  'the a an and or but to of in on for with at by from is are was were be been it its this that these those we you your our us they them their i me my he she his her as not no yes do does did so if then than there here what when where which who how all any can will just get got have has had also more most very about into over after before up out one two'.split(
    ' ',
  ),
);

/**
 * A one-page tone of voice guide measured from the brand's best copy: the voice in three words
 * (each with the measure behind it), do examples (their own best sentences), don't examples,
 * the words they use most, and words to ban (hype and jargon absent from the samples).
 */
const tool = defineTool({
  name: 'tone_of_voice_guide',
  description:
    'Write a one-page tone of voice guide from attached samples of the brand\'s best copy: the voice in three words with the measure behind each (sentence length, "you" per sentence, contractions, reading ease, passive share), do and don\'t examples, preferred and banned words.',
  input: z.object({}),
  async run(ctx): Promise<ToneGuide> {
    const { docs, problems } = await readDocs(ctx);
    const samples = docs.filter((d) => !d.guidelines);
    if (!samples.length)
      throw new ToolError(
        problems[0] ??
          'No copy samples are attached: attach three to five pieces of your best copy.',
      );
    // A heading is a sentence of its own: it must not run into the line below it.
    const all = samples.map((s) => s.text.replace(/^#+\s*(.+?)[.!?]?\s*$/gm, '$1.')).join('\n');
    if (!detectLanguage(all).english)
      throw new ToolError(
        `The samples read as ${detectLanguage(all).name}: the tone measures (readability, passive voice) are English-only, so a guide from them would be wrong.`,
      );
    const sents = sentencesOf(all);
    const ws = words(all);
    const you = sents.filter((s) => /\byou(r|rs|'ve|'ll|'re)?\b/i.test(s)).length;
    const contractions = (all.match(/\b\w+['’](s|t|re|ve|ll|d|m)\b/gi) ?? []).length;
    const passives = sents.filter((s) => passivePhrase(s));
    const measures = {
      avgSentenceWords: Math.round((ws.length / Math.max(1, sents.length)) * 10) / 10,
      youPerSentence: Math.round((you / Math.max(1, sents.length)) * 100) / 100,
      contractionsPer100Words: Math.round((contractions / Math.max(1, ws.length)) * 1000) / 10,
      readingEase: fleschReadingEase(all),
      passiveShare: Math.round((passives.length / Math.max(1, sents.length)) * 1000) / 10,
      exclamations: (all.match(/!/g) ?? []).length,
    };
    const candidates: Array<{ word: string; because: string; strength: number }> = [
      {
        word: measures.avgSentenceWords <= 14 ? 'Direct' : 'Considered',
        because: `sentences average ${measures.avgSentenceWords} words`,
        strength: measures.avgSentenceWords <= 14 ? 3 : 1,
      },
      {
        word: 'Personal',
        because: `${Math.round(measures.youPerSentence * 100)}% of sentences speak to "you"`,
        strength: measures.youPerSentence >= 0.3 ? 3 : 0,
      },
      {
        word: measures.contractionsPer100Words >= 1 ? 'Conversational' : 'Professional',
        because: `${measures.contractionsPer100Words} contractions per 100 words`,
        strength: 2,
      },
      {
        word: 'Plain',
        because: `Flesch reading ease ${measures.readingEase}`,
        strength: measures.readingEase >= 60 ? 2.5 : 0,
      },
      {
        word: 'Confident',
        because: `${measures.passiveShare}% passive sentences`,
        strength: measures.passiveShare < 10 ? 1.5 : 0,
      },
      {
        word: 'Energetic',
        because: `${measures.exclamations} exclamation marks`,
        strength: measures.exclamations >= 3 ? 2 : 0,
      },
    ];
    const threeWords = candidates
      .sort((a, b) => b.strength - a.strength)
      .slice(0, 3)
      .map(({ word, because }) => ({ word, because }));
    const good = sents
      .filter((s) => !passivePhrase(s) && words(s).length <= 16 && /\b(you|your|we|our)\b/i.test(s))
      .sort((a, b) => words(a).length - words(b).length)
      .slice(0, 4);
    const donts: ToneGuide['donts'] = [
      ...passives
        .slice(0, 2)
        .map((s) => ({ example: s, why: 'passive: say who does it', fromSamples: true })),
      ...sents
        .filter((s) => words(s).length > 25)
        .slice(0, 2)
        .map((s) => ({ example: s, why: 'too long: split it', fromSamples: true })),
    ];
    if (donts.length < 2)
      donts.push(
        {
          example: 'Leverage our best-in-class platform to unlock seamless synergies.',
          why: 'hype and jargon: none of your samples talk like this',
          fromSamples: false,
        },
        {
          example: 'Payments are processed by the system within the agreed timeframe.',
          why: 'passive and vague: your samples say who does what',
          fromSamples: false,
        },
      );
    const freq = new Map<string, number>();
    for (const w of ws.map((x) => x.toLowerCase().replace(/['’]s$/, '')))
      if (w.length > 3 && !STOP.has(w) && !/^\d/.test(w)) freq.set(w, (freq.get(w) ?? 0) + 1);
    const preferredWords = [...freq]
      .filter(([, n]) => n >= 2)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([w]) => w);
    const bannedWords = [...DEFAULT_BANNED, ...JARGON.slice(0, 6)].filter((t) => !findTerm(all, t));
    const guide = [
      '# Our tone of voice',
      '',
      `Measured from ${samples.length} samples of our best copy (${samples.map((s) => s.fileName).join(', ')}).`,
      '',
      '## Our voice in three words',
      '',
      ...threeWords.map((t) => `- **${t.word}**: ${t.because}.`),
      '',
      '## Do',
      '',
      ...good.map((s) => `- "${s}"`),
      '',
      "## Don't",
      '',
      ...donts.map(
        (d) =>
          `- "${d.example}" (${d.why}${d.fromSamples ? '' : '; an example, not from your samples'})`,
      ),
      '',
      '## Words we use',
      '',
      preferredWords.join(', ') || '[none repeat across the samples]',
      '',
      "## Words we don't use",
      '',
      bannedWords.join(', '),
      '',
      `## Rules of thumb\n\n- Keep sentences to about ${Math.max(12, Math.round(measures.avgSentenceWords + 4))} words or fewer.\n- Speak to the reader as "you"; say "we" for us.\n- Say who does what: active verbs.`,
      '',
    ].join('\n');
    return {
      samples: samples.map((s) => s.fileName),
      measures,
      threeWords,
      dos: good,
      donts,
      preferredWords,
      bannedWords,
      guide,
    };
  },
});

const task = {
  key: 'tone-guide',
  title: 'Tone of voice guide',
  words:
    /\b(tone of voice guide|voice guide|examples of our best copy|write (a|our) tone of voice)\b/i,
  needs: 'three to five samples of your best copy (DOCX, markdown or text)',
  sample: [
    'tone-of-voice-template.md',
    "# Our tone of voice\n\n## Our voice in three words\n\n## Do\n\n## Don't\n\n## Words we use\n\n## Words we don't use\n",
  ],
} as const;

function render(g: ToneGuide): Section {
  // Row i pairs the i-th do with the i-th don't; the shorter list leaves its cell empty.
  const doDont = table<number>(
    [
      { header: 'Do (from your samples)', value: (i) => (g.dos[i] ? `"${g.dos[i]}"` : '') },
      {
        header: "Don't",
        value: (i) => (g.donts[i] ? `"${g.donts[i]!.example}" (${g.donts[i]!.why})` : ''),
      },
    ],
    Array.from({ length: Math.max(g.dos.length, g.donts.length) }, (_, i) => i),
  );
  return section(task.title, {
    answer: [
      `**Our voice in three words: ${g.threeWords.map((t) => t.word).join(', ')}.** Measured from ${g.samples.length} samples: ${g.threeWords.map((t) => `${t.word.toLowerCase()} because ${t.because}`).join('; ')}.`,
    ],
    content: laidOut(
      [
        "### Do and don't",
        '',
        doDont.markdown(),
        '',
        `**Preferred words** (used most in your samples): ${g.preferredWords.join(', ') || 'none repeat'}.`,
        '',
        `**Banned words**: ${g.bannedWords.join(', ')}.`,
      ],
      [],
      [file('tone-of-voice-guide.md', g.guide)],
    ),
    nextSteps: ['Review this copy against the new tone of voice guide'],
  });
}

export const toneOfVoiceGuide = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => (hasDocuments(ctx) ? [{ tool: tool.name, input: {} }] : []),
  render,
});

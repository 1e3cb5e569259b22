import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, type Section } from '../../../report/section';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { readDocs } from '../read';

const Output = z.object({
  fileName: z.string(),
  product: z.string(),
  audience: z.string().nullable(),
  positioning: z.string(),
  headline: z.string(),
  proofPoints: z.array(z.string()),
  email: z.object({ subject: z.string(), body: z.string() }),
  social: z.string(),
  website: z.object({ headline: z.string(), subhead: z.string(), cta: z.string() }),
  launchDate: z.string().nullable(),
  missing: z.array(z.string()),
});
export type LaunchMessaging = z.infer<typeof Output>;

const clean = (s: string) =>
  s
    .replace(/^[-*•–]\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
const sentence1 = (s: string) =>
  clean(s)
    .split(/(?<=[.!?])\s+/)[0]!
    .replace(/[.]$/, '');

function sectionOf(lines: string[], re: RegExp): string[] {
  const i = lines.findIndex((l) => re.test(l) && l.split(/\s+/).length <= 8);
  if (i < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (
      /^[A-Z][^.!?]{0,60}$/.test(l) &&
      l.split(/\s+/).length <= 8 &&
      !/^[-*•–]/.test(l) &&
      !/\d/.test(l)
    )
      break;
    out.push(l);
  }
  return out;
}

/**
 * Launch messaging from a product fact sheet, built only from its facts: a positioning
 * statement (for whom, what, unlike what), a headline, three proof points (the facts with
 * figures first), and short copy for e-mail, social and the website. Missing facts are named.
 */
const tool = defineTool({
  name: 'launch_messaging',
  description:
    'Create launch messaging from an attached product fact sheet: positioning statement, headline, three proof points, and short copy for e-mail, social and the website, using only the facts in the sheet.',
  input: z.object({ file: z.string().max(255).optional() }),
  async run(ctx, { file }): Promise<LaunchMessaging> {
    const { docs, problems } = await readDocs(ctx);
    const doc = (file && docs.find((d) => d.fileName === file)) || docs.find((d) => !d.guidelines);
    if (!doc)
      throw new ToolError(
        problems[0] ?? 'No fact sheet is attached: attach it as PDF, DOCX, markdown or text.',
      );
    const lines = doc.text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const product =
      /(?:fact sheet|factsheet|product)\s*[:\-–]\s*(.+)$/i.exec(lines[0] ?? '')?.[1]?.trim() ??
      lines[0]!.slice(0, 60);
    const what = sectionOf(lines, /^(what it is|overview|the product|what it does)/i)[0];
    const audienceLine = sectionOf(lines, /^(who it is for|audience|target|customers)/i)[0] ?? null;
    const facts = sectionOf(lines, /^(key facts|facts|features|benefits|highlights|proof)/i).map(
      clean,
    );
    const versus =
      sectionOf(lines, /^(versus|vs\.?|compared|competition|alternatives)/i)[0] ?? null;
    const launch = sectionOf(lines, /^(launch|availability|timing|when)/i)[0] ?? null;
    const proofPoints = [...facts]
      .sort((a, b) => Number(/\d/.test(b)) - Number(/\d/.test(a)))
      .slice(0, 3);
    const missing: string[] = [];
    if (!what) missing.push('what the product is');
    if (!audienceLine) missing.push('who it is for');
    if (proofPoints.length < 3)
      missing.push(`${3 - proofPoints.length} more fact(s) for the proof points`);
    const audience = audienceLine ? sentence1(audienceLine).replace(/^(for\s+)/i, '') : null;
    const benefit = what
      ? sentence1(what)
          .replace(new RegExp(`^${product.split(' ').slice(-2).join(' ')}\\s+`, 'i'), '')
          .replace(/^(it\s+)/i, '')
      : '[what it does]';
    const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
    const positioning = `For ${audience ? lower(audience) : '[audience]'}, ${product} ${lower(benefit)}.${versus ? ` Unlike the alternative (${lower(sentence1(versus))}), it does it ${/\bminutes?\b/i.test(proofPoints.join(' ')) ? 'in minutes' : 'faster'}.` : ''}`;
    const headline = proofPoints[0]
      ? `${sentence1(proofPoints[0]).split(/[,;]/)[0]!.replace(/\.$/, '')}.`
      : `${product}.`;
    const launchDate = launch
      ? (/\b\d{1,2}\s+\w+\s+\d{4}\b|\b\w+\s+\d{4}\b/.exec(launch)?.[0] ?? null)
      : null;
    const cta = 'Turn it on today';
    return {
      fileName: doc.fileName,
      product,
      audience,
      positioning,
      headline,
      proofPoints,
      email: {
        subject: headline.replace(/\.$/, ''),
        body: `${what ? sentence1(what) : product}.\n\n${proofPoints.map((p) => `- ${p}`).join('\n')}\n\n${launchDate ? `Available from ${launchDate}. ` : ''}${cta}.`,
      },
      social:
        `${headline} ${proofPoints[1] ? sentence1(proofPoints[1]) + '.' : ''}${launchDate ? ` From ${launchDate}.` : ''}`.slice(
          0,
          280,
        ),
      website: { headline, subhead: what ? sentence1(what) + '.' : '[what it does]', cta },
      launchDate,
      missing,
    };
  },
});

const task = {
  key: 'launch',
  title: 'Launch messaging',
  words: /\b(product launch|launch messaging|fact sheet|positioning statement)\b/i,
  needs: 'the product fact sheet (PDF, DOCX, markdown or text)',
  sample: [
    'launch-messaging-template.md',
    '# Launch messaging\n\n## Positioning statement\n\nFor [audience] who [need], [product] is [category] that [benefit]. Unlike [alternative], it [difference].\n\n## Headline\n\n## Proof points\n\n1.\n2.\n3.\n\n## Email / Social / Website\n',
  ],
} as const;

function render(m: LaunchMessaging): Section {
  return section(`${task.title}: ${m.product}`, {
    answer: [
      `**Positioning statement:** ${m.positioning}\n\n**Headline:** ${m.headline}\n\n**Three proof points:**\n${m.proofPoints.map((p, i) => `${i + 1}. ${p}`).join('\n')}${m.missing.length ? `\n\nThe fact sheet does not say ${list(m.missing)}: those parts are placeholders.` : ''}`,
    ],
    content: [
      ...laidOut([
        '### Short copy',
        '',
        `**Email**\n\nSubject: ${m.email.subject}\n\n${m.email.body}`,
        '',
        `**Social**\n\n${m.social}`,
        '',
        `**Website**\n\nHeadline: ${m.website.headline}\n\nSubhead: ${m.website.subhead}\n\nButton: ${m.website.cta}`,
        '',
        `Every line comes from ${m.fileName}; nothing is added that the sheet does not state.`,
      ]),
      file(
        'launch-messaging.md',
        `# Launch messaging: ${m.product}\n\n## Positioning statement\n\n${m.positioning}\n\n## Headline\n\n${m.headline}\n\n## Proof points\n\n${m.proofPoints.map((p) => `- ${p}`).join('\n')}\n\n## Email\n\nSubject: ${m.email.subject}\n\n${m.email.body}\n\n## Social\n\n${m.social}\n\n## Website\n\n${m.website.headline}\n\n${m.website.subhead}\n\n[${m.website.cta}]\n`,
      ),
    ],
    nextSteps: [
      'Review the launch copy against our brand voice',
      'Write a campaign brief for the launch',
    ],
  });
}

export const launchMessaging = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => (hasDocuments(ctx) ? [{ tool: tool.name, input: {} }] : []),
  render,
});

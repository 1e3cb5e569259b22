import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { readDocs } from '../read';

export interface LaunchMessaging {
  fileName: string;
  product: string;
  audience: string | null;
  positioning: string;
  headline: string;
  proofPoints: string[];
  email: { subject: string; body: string };
  social: string;
  website: { headline: string; subhead: string; cta: string };
  launchDate: string | null;
  missing: string[];
}

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
export const launchMessaging = defineTool({
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

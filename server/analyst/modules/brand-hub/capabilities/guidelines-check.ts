import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { file } from '../../../tools/reports';
import { hasDocuments } from '../request';
import { defineTool, ToolError } from '../../../tools/tool';
import { reviewCopy } from '../copy-review';
import { BrandRulesSchema, rulesFrom } from '../guidelines';
import { readDocs } from '../read';

const Item = z.object({
  item: z.string(),
  logo: z.array(z.string()),
  colours: z.array(z.string()),
  typography: z.array(z.string()),
  tone: z.array(z.string()),
  legal: z.array(z.string()),
  fixes: z.array(z.string()),
});
const Output = z.object({
  guidelines: z.string(),
  rules: BrandRulesSchema.pick({
    palette: true,
    fonts: true,
    bannedFonts: true,
    logoRules: true,
    legalLines: true,
    banned: true,
    preferred: true,
  }),
  items: z.array(Item),
  passed: z.number(),
});
export type GuidelinesCheck = z.infer<typeof Output>;
type ItemCheck = z.infer<typeof Item>;

/** Materials pasted as one file are split into items at their headings ("Item 2: Instagram post"). */
function itemsOf(name: string, textContent: string): Array<{ item: string; body: string }> {
  const parts = textContent.split(/^#{1,3}\s+/m).filter((p) => p.trim());
  const items = parts
    .map((p) => {
      const [head, ...rest] = p.split('\n');
      return { item: head!.trim(), body: rest.join('\n').trim() };
    })
    .filter((p) => p.body);
  return items.length > 1 ? items : [{ item: name, body: textContent }];
}

/**
 * Applies the brand guidelines to marketing materials, item by item: logo rules (stretching,
 * recolouring, rotation stated in the material), colours outside the palette, fonts the
 * guidelines do not allow, tone (banned and preferred words), and the legal lines each kind of
 * item must carry; with the fixes per item.
 */
const tool = defineTool({
  name: 'guidelines_compliance',
  description:
    'Check marketing materials against attached brand guidelines, item by item: logo use, colours outside the palette, typography, tone (banned words in any inflection, preferred wording) and required legal lines, with a list of fixes per item.',
  input: z.object({}),
  async run(ctx): Promise<GuidelinesCheck> {
    const { docs, problems } = await readDocs(ctx);
    const guide = docs.find((d) => d.guidelines);
    if (!guide)
      throw new ToolError(
        problems[0] ?? 'No brand guidelines are attached: attach them with the materials.',
      );
    const rules = rulesFrom(guide.text, '', guide.fileName);
    const materials = docs.filter((d) => d !== guide);
    if (!materials.length)
      throw new ToolError("Only the guidelines are attached: attach the materials' text too.");
    const items: ItemCheck[] = [];
    for (const m of materials)
      for (const { item, body } of itemsOf(m.fileName, m.text)) {
        const c: ItemCheck = {
          item,
          logo: [],
          colours: [],
          typography: [],
          tone: [],
          legal: [],
          fixes: [],
        };
        const logoLine = body.split('\n').find((l) => /\blogo\b/i.test(l)) ?? '';
        for (const verb of ['stretch', 'recolour', 'recolor', 'rotat', 'distort', 'squash'])
          if (new RegExp(`\\b${verb}\\w*`, 'i').test(logoLine)) {
            c.logo.push(
              `Logo ${/\b\w*(stretch|recolou?r|rotat|distort|squash)\w*/i.exec(logoLine)![0]}: the guidelines say "${rules.logoRules[0] ?? 'never alter the logo'}"`,
            );
            c.fixes.push('Use the master logo file at its own proportions and colours');
          }
        const hexes = [
          ...new Set((body.match(/#[0-9a-f]{6}\b/gi) ?? []).map((h) => h.toUpperCase())),
        ];
        for (const h of hexes.filter((x) => rules.palette.length && !rules.palette.includes(x))) {
          c.colours.push(`${h} is not in the palette (${rules.palette.join(', ')})`);
          c.fixes.push(`Replace ${h} with a palette colour`);
        }
        for (const f of rules.bannedFonts.filter((f) => new RegExp(`\\b${f}\\b`, 'i').test(body))) {
          c.typography.push(
            `${f} is not allowed${rules.fonts.length ? ` (use ${rules.fonts.join(' or ')})` : ''}`,
          );
          c.fixes.push(`Reset the type in ${rules.fonts.join(' / ') || 'the brand fonts'}`);
        }
        const copyLines = body
          .split('\n')
          .filter((l) => !/#[0-9a-f]{6}|\blogo\b|\bset in\b|\bheadline in\b/i.test(l))
          .join('\n');
        const review = reviewCopy(copyLines, rules, item);
        for (const h of review.bannedHits) {
          c.tone.push(`Banned word ${h.forms.map((f) => `"${f}"`).join(', ')}`);
          c.fixes.push(`Remove "${h.forms[0]}": say what the offer does`);
        }
        for (const h of review.preferredHits) {
          c.tone.push(`"${h.forms[0]}" where the guidelines prefer "${h.preferred}"`);
          c.fixes.push(`Say "${h.preferred}" instead of "${h.forms[0]}"`);
        }
        const kind = item.toLowerCase();
        for (const l of rules.legalLines) {
          const applies = /e-?mail/.test(l.appliesTo)
            ? /e-?mail/.test(kind)
            : /offer/.test(l.appliesTo)
              ? /\b(offer|free|discount|% off|months? of free)\b/i.test(body)
              : true;
          if (applies && !body.toLowerCase().includes(l.line.toLowerCase().replace(/\.$/, ''))) {
            c.legal.push(`Missing the legal line for ${l.appliesTo}: "${l.line}"`);
            c.fixes.push(`Add "${l.line}"`);
          }
        }
        items.push(c);
      }
    return {
      guidelines: guide.fileName,
      rules: {
        palette: rules.palette,
        fonts: rules.fonts,
        bannedFonts: rules.bannedFonts,
        logoRules: rules.logoRules,
        legalLines: rules.legalLines,
        banned: rules.banned,
        preferred: rules.preferred,
      },
      items,
      passed: items.filter((i) => !i.fixes.length).length,
    };
  },
});

const task = {
  key: 'guidelines-check',
  title: 'Brand guidelines compliance check',
  words:
    /\b(guidelines compliance|marketing materials|against (our|the) brand guidelines|compliance check)\b/i,
  needs: "the brand guidelines and the materials' text (PDF, DOCX, HTML or text)",
  sample: [
    'brand-guidelines-checklist.md',
    '# What the check applies\n\n- Logo use\n- Colours (palette hex codes)\n- Typography\n- Tone: banned and preferred words\n- Legal lines\n',
  ],
} as const;

/** An item's findings against one part of the guidelines, or that it follows it. */
const follows = (findings: string[]) => findings.join('; ') || '✅ follows';

function render(g: GuidelinesCheck): Section {
  const failing = g.items.filter((i) => i.fixes.length);
  const items = table<GuidelinesCheck['items'][number]>(
    [
      { header: 'Item', value: (i) => i.item },
      { header: 'Logo use', value: (i) => follows(i.logo) },
      { header: 'Colours', value: (i) => follows(i.colours) },
      { header: 'Typography', value: (i) => follows(i.typography) },
      { header: 'Tone', value: (i) => follows(i.tone) },
      { header: 'Legal lines', value: (i) => follows(i.legal) },
    ],
    g.items,
  );
  const lines = [
    '### Item by item',
    '',
    items.markdown(),
    '',
    '### Fixes per item',
    '',
    ...g.items.map(
      (i) =>
        `**${i.item}**\n${i.fixes.length ? i.fixes.map((f) => `- ${f}`).join('\n') : '- None.'}\n`,
    ),
    `Rules read from ${g.guidelines}: palette ${g.rules.palette.join(', ') || 'not stated'}; fonts ${g.rules.fonts.join(', ') || 'not stated'} (never ${g.rules.bannedFonts.join(', ') || '—'}); ${g.rules.legalLines.length} legal line(s); ${g.rules.banned.length} banned words in every form.`,
  ];
  return section(task.title, {
    answer: [
      `**${g.passed} of ${g.items.length} items follow ${g.guidelines}; ${failing.length} need fixes** (${failing.map((i) => `${i.item}: ${i.fixes.length}`).join('; ')}).`,
    ],
    content: laidOut(
      lines,
      [],
      [
        file(
          'brand-compliance-fixes.md',
          `# Brand guidelines compliance: fixes\n\n${g.items.map((i) => `## ${i.item}\n\n${i.fixes.length ? i.fixes.map((f) => `- [ ] ${f}`).join('\n') : '- Nothing to fix.'}\n`).join('\n')}`,
        ),
      ],
    ),
    nextSteps: ['Review the corrected copy against the brand voice'],
  });
}

export const guidelinesCompliance = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => (hasDocuments(ctx) ? [{ tool: tool.name, input: {} }] : []),
  render,
});

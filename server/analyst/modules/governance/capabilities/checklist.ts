import type { ContentItem } from '@contract/structured-response';
import type { RenderContext } from '../../../capability';
import { laidOut, section, type Section } from '../../../report/section';
import { plural } from '../../../report/words';
import { barChart, radarChart } from '../../../tools/charts';
import { SEARCH_KNOWLEDGE, citationMarkdown, type KnowledgeResult } from '../../../tools/knowledge';
import { file, fileNameFor } from '../../../tools/reports';
import type { ToolCallRecord } from '../../../tools/tool';
import type { PlanContext } from '../../module';
import { list } from '../../report-parts';
import { CHECKLISTS, draftOf, type ChecklistKey } from '../checklists';
import type { ConceptResult } from '../sections';
import { checklistCoverage, type ChecklistResult } from '../tools/checklist';
import { checklistTable, POINTS } from './coverage';
import { defineGovernance, needsSection } from './define';
import { perDocument } from './inputs';
import { quotedFile } from './csv';

/**
 * The checklist capabilities: one tool (checklist_coverage), one capability per checklist the
 * user asks for by name, each built here from the checklist's data (checklists.ts) and the
 * words that ask for it (docs/decisions/0086-governance-capabilities.md).
 */

/** Wording for a section, written from the checklist's guidance and the document's own quote. */
function draftWording(r: ConceptResult, title: string): string {
  const base = draftOf(r.key, r.guidance, title);
  const kept =
    r.status === 'partial' && r.evidence
      ? `\n\n> Your text already says: "${r.evidence}". Keep it and complete the section.`
      : '';
  return `## ${r.label}\n\n_${r.guidance}_\n\n${base}${kept}\n`;
}

/** What a checklist answer shows: the review, the review with draft wording, or the drafts only. */
type Mode = 'review' | 'drafting' | 'drafts';

const toDo = (r: ChecklistResult) =>
  r.items.filter((i) => i.status === 'missing' || i.status === 'partial');

function draftsOnly(r: ChecklistResult): Section {
  const todo = toDo(r);
  const drafts = todo.map((t) => draftWording(t, r.title)).join('\n');
  return section(`Draft sections: ${r.title}`, {
    answer: [
      `Here is the draft wording for the ${plural(todo.length, 'section')} ${r.title} lacks or only mentions: ${list(todo.map((t) => t.label.toLowerCase()))}. Replace the bracketed parts; the quotes are your own text to keep.`,
    ],
    content: laidOut(
      [drafts],
      [],
      [
        file(
          fileNameFor(`${r.title} draft sections`, 'md'),
          `# ${r.title}: draft sections\n\n${drafts}`,
        ),
      ],
    ),
    nextSteps: ['Check the revised policy again once the sections are added'],
  });
}

function checklistReport(results: ChecklistResult[], mode: Mode): Section {
  if (mode === 'drafts') return draftsOnly(results[0]!);
  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  const key = results[0]!.checklist;
  const checklist = CHECKLISTS[key];
  const drafting = mode === 'drafting';
  const lead = results.map((r) => {
    const missing = r.items.filter((i) => i.status === 'missing').map((i) => i.label);
    const weak = r.items.filter((i) => i.status === 'partial').map((i) => i.label);
    return `**${r.title}** (${r.fileName}) covers ${r.items.filter((i) => i.status === 'covered').length} of ${r.applicable} ${r.checklistLabel.toLowerCase()} items (score ${r.score}%). ${missing.length ? `Missing: ${list(missing)}.` : 'Nothing is missing.'}${weak.length ? ` Weak (mentioned, no section): ${list(weak)}.` : ''}`;
  });
  for (const r of results) {
    const items = checklistTable(r.items);
    content.push(
      ...laidOut([
        `### ${r.title}: ${r.checklistLabel}`,
        '',
        'Sections are judged by what they say, not only by their headings: a section titled differently still counts when its content does the job.',
        '',
        items.markdown(),
        ...r.notes.map((n) => `\n_Note: ${n}_`),
      ]),
    );
    const applicable = r.items.filter((i) => i.status !== 'not applicable');
    content.push(
      radarChart(
        `Checklist coverage: ${r.title}`,
        applicable.map((i) => i.label),
        [{ label: 'Coverage %', data: applicable.map((i) => POINTS[i.status]) }],
        100,
      ),
    );
    const todo = toDo(r);
    if (todo.length && (drafting || checklist.sectionsToAdd))
      content.push(
        file(
          fileNameFor(`${r.title} ${drafting ? 'draft wording' : 'missing sections'}`, 'md'),
          `# ${r.title}: ${drafting ? 'draft wording for the sections that are missing or out of date' : 'sections to add'}\n\n${todo.map((t) => draftWording(t, r.title)).join('\n')}`,
        ),
      );
    if (drafting && todo.length)
      content.push(
        ...laidOut([
          '### Draft wording',
          '',
          todo
            .filter(
              (t) =>
                ['remoteWork', 'personalDevices', 'generativeAi'].includes(t.key) ||
                t.status === 'missing',
            )
            .map((t) => draftWording(t, r.title))
            .join('\n'),
        ]),
      );
    if (checklist.evidence) {
      const still = r.items.filter((i) => i.status !== 'covered');
      content.push(
        ...laidOut([
          '### Evidence still needed',
          '',
          ...(still.length
            ? still.map((i) => `- **${i.label}**: ${i.guidance}`)
            : ['- None: every item has evidence in the attached documents.']),
        ]),
        quotedFile(fileNameFor(`${checklist.label}`, 'csv'), items),
      );
    }
  }
  if (results.length > 1)
    content.push(
      barChart(
        'Coverage score by document',
        results.map((r) => r.title),
        [{ label: 'Coverage %', data: results.map((r) => r.score) }],
        { max: 100, yTitle: '%' },
      ),
    );
  const first = results[0]!;
  if (toDo(first).length && checklist.sectionsToAdd)
    nextSteps.push(`Draft the missing sections of ${first.title}`);
  return section(checklist.reportTitle(results.map((r) => r.title)), {
    answer: [lead.join('\n\n')],
    content,
    nextSteps,
  });
}

/**
 * The company library's related policies and regulations beside a policy review (ADR 0069):
 * each passage the search returned, cited with a link to it. An attached document wins: a
 * library document of the same title is left out, and the report says so.
 */
function relatedInLibrary(calls: ToolCallRecord[], checked: ChecklistResult[]): ContentItem[] {
  const found = calls.find((c) => c.tool === SEARCH_KNOWLEDGE)?.output as
    Partial<KnowledgeResult> | undefined;
  if (!found || !Array.isArray(found.passages)) return [];
  const attached = new Set(
    checked.map((c) => c.fileName.replace(/\.[a-z0-9]{1,5}$/i, '').toLowerCase()),
  );
  const shadowed = [
    ...new Set(
      found.passages.filter((p) => attached.has(p.title.toLowerCase())).map((p) => p.title),
    ),
  ];
  const passages = found.passages.filter((p) => !attached.has(p.title.toLowerCase())).slice(0, 6);
  const lines = [
    '### Related policies and regulations in your library',
    '',
    passages.length
      ? 'Compare the policy with what your company library already says on the same subjects:'
      : 'Your company library holds nothing else on these subjects.',
    '',
    ...passages.map((p) => {
      const gist = p.text.replace(/\s+/g, ' ').trim();
      return `- ${citationMarkdown(p)}: ${gist.length > 240 ? `${gist.slice(0, 240)}…` : gist}`;
    }),
    ...(shadowed.length
      ? [
          '',
          `The attached file wins over the library's ${shadowed.map((t) => `**${t}**`).join(', ')}: the attachment was reviewed, not the library's version.`,
        ]
      : []),
  ];
  return laidOut(lines);
}

function renderChecklists(results: ChecklistResult[], mode: Mode, ctx: RenderContext): Section {
  const s = checklistReport(results, mode);
  return { ...s, content: [...s.content, ...relatedInLibrary(ctx.plan.calls, results)] };
}

/** The answer offering a checklist's template when no document to check is attached. */
const checklistMissing = (key: ChecklistKey) => {
  const c = CHECKLISTS[key];
  return () =>
    needsSection('document', c.needs, `${c.label} and template`, [
      fileNameFor(`${c.label} template`, 'md'),
      `# ${c.label}\n\n${c.concepts.map((k, i) => `## ${i + 1}. ${k.label}\n\n_${k.guidance}_\n`).join('\n')}`,
    ]);
};

/** A capability checking the attached documents against a checklist. */
export function checklistCapability<Task extends string>(o: {
  key: Task;
  words?: RegExp;
  /** The checklist the request asks for. */
  checklist: ChecklistKey | ((request: string) => ChecklistKey);
  mode: Mode;
  /** Its missing-file answer offers this checklist's template (none: the module's default). */
  template?: ChecklistKey;
  /** Calls it makes besides the checklist (the gifts register beside an anti-bribery check). */
  alsoPlan?: (ctx: PlanContext) => ToolCallRecord[];
}) {
  const label = (request: string) =>
    CHECKLISTS[typeof o.checklist === 'string' ? o.checklist : o.checklist(request)].label;
  return defineGovernance({
    task: {
      key: o.key,
      title: label(''),
      words: o.words,
      ...(o.template
        ? { needs: CHECKLISTS[o.template].needs, missing: checklistMissing(o.template) }
        : {}),
    },
    tool: checklistCoverage,
    plan: (ctx, request) => [
      ...perDocument(ctx, typeof o.checklist === 'string' ? o.checklist : o.checklist(request)),
      ...(o.alsoPlan?.(ctx) ?? []),
    ],
    render: (result, ctx) => renderChecklists([result], o.mode, ctx),
    renderAll: (results, ctx) => renderChecklists(results, o.mode, ctx),
  });
}

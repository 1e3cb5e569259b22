import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { nextStepActionOf } from '@contract/structured-response';
import { capabilityOfTool, resultOf } from '../../capability';
import { chartsOf, filesOf, textsOf, type Section } from '../../report/section';
import { grouped } from '../../report/words';
import { file, fileNameFor, finishReport, text } from '../../tools/reports';
import type { ToolCallRecord } from '../../tools/tool';
import { HONESTY_NOTE, type PlanContext } from '../module';
import { isError, list } from '../report-parts';
import { CAPABILITIES, capabilityOfTask, taskInfo, type TalentTask } from './capabilities';
import type { Basis } from './people';
import { callsFor, questionParts, taskOf, type TalentPart } from './plan';
import { bodyOf } from './request';

/**
 * The Talent Intelligence report from the sections its capabilities render (ADR 0085): the
 * answer to the question in its first lines, then the evidence (charts, tables, files), how the
 * file was read and the definitions used, then deeper next steps. Only what was asked is
 * written: no fixed ten-chart dump.
 */

function outputOf<T>(calls: ToolCallRecord[], tool: string): T | null {
  const c = calls.find((x) => x.tool === tool && x.output !== undefined && !isError(x.output));
  return c ? (c.output as T) : null;
}

function dataNeeded(task: TalentTask, problems: string[]): StructuredResponse {
  const info = taskInfo(task);
  const [name, sample] = info.sample;
  return finishReport({
    taskName: `${info.title}: data needed`,
    content: [
      text(
        [
          ...(problems.length
            ? [`**I could not use the attachment:** ${problems.join(' ')}`, '']
            : []),
          `To answer this I need ${info.needs}, as CSV or XLSX. Attach it with your question; I compute every figure from it with the definitions stated in the report, and say how I read the file.`,
          '',
          `The sample file below has the layout (dates as YYYY-MM-DD work best, but day-first, Excel serials and month names are read too).`,
          '',
          HONESTY_NOTE,
        ].join('\n'),
      ),
      file(name, sample),
    ],
    nextSteps: [
      'Attach the export from your HR system as CSV or XLSX',
      'Fill in the sample file with your data and attach it',
      'Show headcount by department and grade',
    ],
  });
}

/** The "How I read your file" section: the table engine's account, else one from the tools' basis. */
function howIRead(calls: ToolCallRecord[]): string | null {
  const read = outputOf<{ how_i_read?: string }>(calls, 'read_tables');
  if (read?.how_i_read) return read.how_i_read;
  const basis = calls
    .map((c) =>
      c.output && !isError(c.output) ? (c.output as { basis?: Partial<Basis> }).basis : undefined,
    )
    .find((b) => b?.tables);
  if (!basis?.tables) return null;
  const lines = ['### How I read your file', ''];
  for (const t of basis.tables)
    lines.push(`- **${t.source}** (${t.role}): ${grouped(t.rows)} rows.`);
  if (basis.mapping?.length) lines.push(`- Columns used: ${basis.mapping.join('; ')}.`);
  if (basis.asOf) lines.push(`- As-of date: ${basis.asOf} (${basis.asOfSource}).`);
  if (basis.warnings?.length)
    lines.push(
      '',
      '**Check before relying on the figures:**',
      '',
      ...basis.warnings.map((w) => `- ${w}`),
    );
  return lines.join('\n');
}

/** The end of every report, one part or several: how the file was read, the definitions, the honesty note. */
function closingLines(how: string | null, definitions: string[]): string[] {
  return [
    ...(how ? [how, ''] : []),
    '### Definitions used',
    '',
    ...definitions.map((d) => `- ${d}`),
    '',
    HONESTY_NOTE,
  ];
}

/** The section of one tool's result, rendered by its capability for a request; null without one. */
function partFor(
  tool: string,
  calls: ToolCallRecord[],
  request: string,
  source: string,
  plan: PlanContext,
): Section | null {
  const cap = capabilityOfTool(CAPABILITIES, tool);
  const r = cap && resultOf(cap, calls);
  return cap && r !== null ? { ...cap.render(r, { request, plan, source }), tool } : null;
}

/** The parts for the results, in the order the calls were planned (the first answers). */
function partsOf(ctx: PlanContext, source: string): Section[] {
  const seen = new Set<string>();
  const parts: Section[] = [];
  let aggregateDone = false;
  for (const call of ctx.calls) {
    if (seen.has(call.tool)) continue;
    seen.add(call.tool);
    const part = partFor(call.tool, ctx.calls, ctx.request, source, ctx);
    // Headcount and attrition of an aggregate are one part: it is drawn once.
    if (outputOf<{ aggregate?: unknown }>(ctx.calls, call.tool)?.aggregate) {
      if (aggregateDone) continue;
      aggregateDone = true;
    }
    if (part) parts.push(part);
  }
  return parts;
}

/** The column roles of the tables read, or null when the reading is not in the results. */
function rolesRead(calls: ToolCallRecord[]): Set<string> | null {
  const read = outputOf<{ tables?: Array<{ columns?: Array<{ role?: string | null }> }> }>(
    calls,
    'read_tables',
  );
  if (!read?.tables) return null;
  return new Set(
    read.tables.flatMap((t) => (t.columns ?? []).flatMap((c) => (c.role ? [c.role] : []))),
  );
}

/** Words of a next step and the column role it needs. */
const STEP_NEEDS: Array<[RegExp, string]> = [
  [/\b(grades?|levels?|bands?)\b/i, 'level'],
  [/\b(locations?|sites?|offices?|countr(y|ies))\b/i, 'location'],
  [/\bgender\b/i, 'gender'],
  [/\b(ratings?|performance)\b/i, 'rating'],
  [/\bmanagers?\b/i, 'managerId'],
];

/**
 * Next steps the data can take (ADR 0057): no "by grade" step when the file has no grade
 * column. A step that asks the user to act (attach, add a column) stays.
 */
export function stepsTheDataSupports(steps: string[], calls: ToolCallRecord[]): string[] {
  const roles = rolesRead(calls);
  if (!roles) return steps;
  return steps.filter(
    (step) =>
      nextStepActionOf(step) !== undefined ||
      STEP_NEEDS.every(([re, role]) => !re.test(step) || roles.has(role)),
  );
}

/**
 * The report of a request that names several analyses (ADR 0058): one section per part, in the
 * order asked, each with its answer first; a part the files cannot answer says so in one line.
 */
function sectionsReport(
  ctx: PlanContext,
  asked: TalentPart[],
  source: string,
  how: string | null,
  definitions: string[],
): StructuredResponse {
  const calls = ctx.calls;
  const content: ContentItem[] = [];
  const md: string[] = [];
  const steps: string[] = [];
  const files: ContentItem[] = [];
  const titles = asked.map((p) => taskInfo(p.task).heading);
  const taskName = list(
    titles.map((t, i) => (i === 0 ? t : t.charAt(0).toLowerCase() + t.slice(1))),
  );
  asked.forEach((p, i) => {
    const tools = callsFor(p.task, p.request, ctx.history).map((c) => c.tool);
    const parts = tools.flatMap((tool) => {
      const part = partFor(tool, calls, p.request, source, ctx);
      return part ? [part] : [];
    });
    const heading = `## ${i + 1}. ${titles[i]}`;
    if (!parts.length) {
      const why = calls
        .filter((c) => tools.includes(c.tool) && isError(c.output))
        .map((c) => (c.output as { error: string }).error)[0];
      const line = `${why ? `Not answered: ${why}` : `Not answered from ${source}.`} To answer it I need ${taskInfo(p.task).needs}.`;
      content.push(text(`${heading}\n\n${line}`));
      md.push(heading, '', line, '');
      steps.push('Attach the export from your HR system as CSV or XLSX');
      return;
    }
    const answer = parts.flatMap((x) => x.answer ?? []);
    const details = parts.flatMap(textsOf);
    content.push(
      text([heading, '', answer[0]!, ...answer.slice(1).map((a) => `- ${a}`)].join('\n')),
      ...parts.flatMap(chartsOf).slice(0, 3),
    );
    if (details.length) content.push(text(details.join('\n')));
    md.push(heading, '', ...answer.map((a) => `- ${a}`), '', ...details);
    steps.push(...parts.flatMap((x) => x.nextSteps));
    files.push(...parts.flatMap(filesOf).filter((f) => !f.filename.endsWith('.md')));
  });
  const closing = closingLines(how, definitions);
  content.push(text(closing.join('\n')));
  content.push(
    ...files,
    file(
      fileNameFor(taskName, 'md'),
      [`# ${taskName}: ${source}`, '', ...md, ...closing, ''].join('\n'),
    ),
  );
  const nextSteps = stepsTheDataSupports([...new Set(steps)], calls).slice(0, 4);
  return finishReport({
    taskName,
    content,
    nextSteps: nextSteps.length ? nextSteps : ['Show headcount by department and grade'],
  });
}

export function writeTalent(ctx: PlanContext): StructuredResponse {
  const task = taskOf(ctx.request);
  const calls = ctx.calls;
  const failures = calls.flatMap((c) => (isError(c.output) ? [c.output.error] : []));
  const source = ctx.files.find((f) => f.kind === 'table')?.fileName ?? 'your file';
  const asked = questionParts(ctx.request);
  const parts = partsOf(ctx, source);
  if (!parts.length) {
    const notTables = ctx.files
      .filter((f) => f.kind !== 'table')
      .map(
        (f) =>
          `${f.fileName} is not a table (CSV, TSV, XLSX or JSON), so I cannot compute from it.`,
      );
    return dataNeeded(task, [...new Set([...notTables, ...failures])]);
  }

  const [first, ...rest] = parts as [Section, ...Section[]];
  const definitions = [
    ...new Set(
      calls.flatMap((c) =>
        c.output &&
        !isError(c.output) &&
        typeof (c.output as { definition?: unknown }).definition === 'string'
          ? [(c.output as { definition: string }).definition]
          : [],
      ),
    ),
  ];
  const how = howIRead(calls);
  if (asked.length > 1) return sectionsReport(ctx, asked, source, how, definitions);
  const answer = [...(first.answer ?? []), ...rest.flatMap((p) => p.answer ?? [])];
  const content: ContentItem[] = [
    text(
      [
        ...answer.map((a, i) => (i === 0 ? a : a.startsWith('Three retention') ? a : `- ${a}`)),
        ...(failures.length
          ? ['', ...[...new Set(failures)].map((f) => `**Not computed:** ${f}`)]
          : []),
      ].join('\n'),
    ),
    ...parts.flatMap(chartsOf).slice(0, 6),
  ];
  const details = parts.flatMap(textsOf);
  if (details.length) content.push(text(details.join('\n')));
  const closing = closingLines(how, definitions);
  content.push(text(closing.join('\n')));
  // A fallback answer is titled by what it is; its own request answered otherwise is an overview.
  const lead = first.tool ? capabilityOfTool(CAPABILITIES, first.tool) : undefined;
  const title = lead?.task.namesFallback
    ? lead.task.title
    : capabilityOfTask(task)?.task.namesFallback
      ? taskInfo('overview').title
      : taskInfo(task).title;
  const taskName = first.reportName ?? `${title}: ${source}`;
  const md = [
    `# ${title}: ${source}`,
    '',
    ...answer.map((a) => `- ${a}`),
    '',
    ...details,
    ...closing,
    '',
  ].join('\n');
  const partFiles = parts.flatMap(filesOf);
  const reportName = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.md`;
  // A part that already hands over its own full report (skills, reskilling) is not repeated.
  const hasReport = partFiles.some((f) => f.filename.endsWith('.md'));
  content.push(...partFiles, ...(hasReport ? [] : [file(reportName, md)]));
  const nextSteps = stepsTheDataSupports(
    [...new Set(parts.flatMap((p) => p.nextSteps))].filter(
      (s) => s.toLowerCase() !== bodyOf(ctx.request).toLowerCase(),
    ),
    calls,
  ).slice(0, 4);
  return finishReport({
    taskName,
    content,
    nextSteps: nextSteps.length ? nextSteps : ['Show headcount by department and grade'],
  });
}

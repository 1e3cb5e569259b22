import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ContentItem } from '@contract/structured-response';
import { commonTools, fileArg, toolResult, TurnFiles } from '../../tools/attachments';
import { barChart, radarChart } from '../../tools/charts';
import { documentFormatOf } from '../../tools/documents';
import { file, fileNameFor, finishReport, markdownTable, text } from '../../tools/reports';
import {
  callTool,
  HONESTY_NOTE,
  mentions,
  type Analysis,
  type AnalysisContext,
  type ModuleAgent,
} from '../module';
import { boardPackSkeleton, boardRequestOf, gapRisks, minutesTemplate } from './board-pack';
import {
  checkPolicy,
  fullPolicyTemplate,
  POLICY_CHECKLIST,
  policySkeleton,
  type CoverageStatus,
  type PolicyCoverage,
} from './policy-checklist';

const INSTRUCTIONS = `You are the Governance analyst of Atrium. You review policy and governance documents the user attaches
(text, markdown, HTML, PDF, DOCX) against a policy checklist: purpose, scope, definitions, roles and responsibilities,
policy statements, compliance and enforcement, exceptions, review cycle, owner and approval, related documents, and data
protection where the policy touches personal data. Report the coverage score, a gap table, a chart, and draft the missing
sections. Prepare risk registers when asked. Quote the document as evidence; never invent its content.`;

const STATUS_LABEL: Record<CoverageStatus, string> = {
  covered: '✅ Covered',
  partial: '⚠️ Mentioned, no section',
  missing: '❌ Missing',
  'not applicable': '— Not applicable',
};

const STATUS_POINTS: Record<CoverageStatus, number> = {
  covered: 100,
  partial: 50,
  missing: 0,
  'not applicable': 0,
};

const TITLE_STOP =
  /^(a|an|the|our|my|your|their|them|this|that|these|check|checking|review|reviewing|draft|drafting|write|writing|create|build|building|help|me|with|for|of|to|new|existing|update|against|and|or|attach|notice|a|in|on|every|each|all|any|its|plan)$/i;

/** A named document ("data retention policy", "code of conduct") in the request, for titles. */
function documentTitleFrom(request: string): string | null {
  const clean = request.replace(/^help me with:\s*/i, '');
  const m =
    /\b((?:[a-z][a-z-]*\s){0,3})(policy|standard|procedure|code of conduct|charter|framework|guidelines?|handbook)\b/i.exec(
      clean,
    );
  if (!m) return null;
  // The contiguous words just before the document type, stopping at verbs and articles.
  const before = m[1]!.trim().split(/\s+/).filter(Boolean);
  const kept: string[] = [];
  for (
    let i = before.length - 1;
    i >= 0 && !TITLE_STOP.test(before[i]!) && !/ing$/i.test(before[i]!);
    i--
  )
    kept.unshift(before[i]!);
  // A bare "policy" names no particular document: the attached document's own title is better.
  if (!kept.length) return null;
  return [...kept, m[2]!]
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ');
}

function gapTable(c: PolicyCoverage): string {
  return markdownTable(
    ['Checklist item', 'Status', 'Evidence or what to add'],
    c.results.map((r) => [
      r.item.label,
      STATUS_LABEL[r.status],
      r.status === 'covered' || (r.status === 'partial' && r.evidence)
        ? `"${r.evidence}"`
        : r.status === 'not applicable'
          ? 'The document does not deal with personal data'
          : r.item.guidance,
    ]),
  );
}

const RISK_COLUMNS = [
  'ID',
  'Risk',
  'Category',
  'Cause',
  'Impact (1-5)',
  'Likelihood (1-5)',
  'Score',
  'Owner',
  'Controls',
  'Actions',
  'Due',
  'Status',
];

function riskRegister(
  title: string,
  gaps: PolicyCoverage[],
): { md: string; rows: Array<[string, number]> } {
  const rows: unknown[][] = [];
  const scored: Array<[string, number]> = [];
  let n = 1;
  const add = (
    risk: string,
    category: string,
    cause: string,
    impact: number,
    likelihood: number,
    controls: string,
    action: string,
  ) => {
    rows.push([
      `R${String(n++).padStart(2, '0')}`,
      risk,
      category,
      cause,
      impact,
      likelihood,
      impact * likelihood,
      '[owner]',
      controls,
      action,
      '[date]',
      'Open',
    ]);
    scored.push([risk, impact * likelihood]);
  };
  for (const c of gaps) {
    for (const r of c.results.filter((x) => x.status === 'missing')) {
      add(
        `${c.title}: no ${r.item.label.toLowerCase()} section`,
        'Policy governance',
        `${r.item.label} not defined`,
        r.item.key === 'dataProtection' || r.item.key === 'compliance' ? 4 : 3,
        3,
        'None documented',
        `Add the ${r.item.label.toLowerCase()} section (see the skeleton file)`,
      );
    }
  }
  if (!rows.length) {
    add(
      'Regulatory change not reflected in policies',
      'Compliance',
      'No horizon scanning',
      4,
      3,
      'Annual policy review',
      'Assign an owner to track regulatory change',
    );
    add(
      'Personal data breach',
      'Data protection',
      'Weak access controls',
      5,
      2,
      'Access reviews, encryption',
      'Run a quarterly access review',
    );
    add(
      'Key supplier failure',
      'Operational',
      'Single supplier for a critical service',
      4,
      2,
      'Supplier due diligence',
      'Identify an alternative supplier',
    );
    add(
      'Policy not followed by staff',
      'People',
      'Low awareness',
      3,
      3,
      'Induction training',
      'Annual attestation of key policies',
    );
    add(
      'Fraud or misappropriation',
      'Financial',
      'Weak segregation of duties',
      4,
      2,
      'Dual approval of payments',
      'Review approval limits',
    );
  }
  const md = [
    `# Risk register: ${title}`,
    '',
    'Score = impact × likelihood (1–25). Rate 15 and above as high, 8–14 as medium, below 8 as low.',
    '',
    markdownTable(RISK_COLUMNS, rows),
    '',
    '## How to use',
    '',
    '- Give every risk an owner and a due date for its actions.',
    '- Review the register monthly and after any incident; close risks only when the action is done and verified.',
    '',
  ].join('\n');
  return { md, rows: scored };
}

async function* analyze(ctx: AnalysisContext): Analysis {
  const files = new TurnFiles(ctx.attachments);
  const wantsRisk = mentions(ctx.request, [
    'risk register',
    'risk log',
    'risk assessment',
    'risk matrix',
    'heat map',
    'risk review',
    'supplier risk',
    'third-party risk',
    'risk tiers',
  ]);
  const requestedTitle = documentTitleFrom(ctx.request);
  const boardReq = boardRequestOf(ctx.request);
  const problems: string[] = [];
  const coverages: Array<{ fileName: string; coverage: PolicyCoverage; notes: string[] }> = [];

  const sources = ctx.attachments.filter(
    (a) =>
      documentFormatOf(a) !== null || !/\.(csv|xlsx|json|png|jpe?g|gif|zip)$/i.test(a.fileName),
  );
  for (const a of ctx.attachments)
    if (!sources.includes(a))
      problems.push(
        `${a.fileName} is not a document: attach the policy as PDF, DOCX, HTML, markdown or text.`,
      );
  for (const att of sources.slice(0, 5)) {
    yield `Reading ${att.fileName}`;
    const doc = yield* callTool('read_document', () => files.document(att.fileName));
    if (!doc.ok) {
      problems.push(doc.error);
      continue;
    }
    const coverage = yield* callTool('policy_coverage', () => checkPolicy(doc.text));
    yield `${att.fileName}: ${coverage.results.filter((r) => r.status === 'covered').length} of ${coverage.applicable} checklist sections present`;
    coverages.push({ fileName: att.fileName, coverage, notes: doc.notes });
  }
  // A policy pasted into the message is reviewed like an attached one.
  if (!ctx.attachments.length && ctx.request.split(/\s+/).length >= 80 && /\n/.test(ctx.request)) {
    const coverage = yield* callTool('policy_coverage', () => checkPolicy(ctx.request));
    coverages.push({ fileName: 'the text of your message', coverage, notes: [] });
  }
  ctx.signal.throwIfAborted();

  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  if (problems.length)
    content.push(
      text(`**Some files could not be reviewed:**\n\n${problems.map((p) => `- ${p}`).join('\n')}`),
    );

  for (const { fileName, coverage, notes } of coverages) {
    const missing = coverage.results.filter((r) => r.status === 'missing');
    const partial = coverage.results.filter((r) => r.status === 'partial');
    content.push(
      text(
        [
          `### ${coverage.title} (${fileName})`,
          '',
          `**Coverage score: ${coverage.score}%** of ${coverage.applicable} applicable checklist items (a section counts 1, a mention without its own section 0.5).`,
          '',
          missing.length
            ? `Missing: ${missing.map((r) => r.item.label).join(', ')}.`
            : 'No checklist section is missing.',
          partial.length
            ? `Mentioned but without a section of their own: ${partial.map((r) => r.item.label).join(', ')}.`
            : '',
          ...notes.map((n) => `Note: ${n}`),
          '',
          gapTable(coverage),
        ]
          .filter((l, i, all) => l !== '' || all[i - 1] !== '')
          .join('\n'),
      ),
    );
    const applicable = coverage.results.filter((r) => r.status !== 'not applicable');
    content.push(
      radarChart(
        `Checklist coverage: ${coverage.title}`,
        applicable.map((r) => r.item.label),
        [{ label: 'Coverage %', data: applicable.map((r) => STATUS_POINTS[r.status]) }],
        100,
      ),
    );
    content.push(
      file(
        fileNameFor(`${coverage.title} missing sections`, 'md'),
        yield* callTool('policy_skeleton', () => policySkeleton(coverage.title, coverage.results)),
      ),
    );
    if (missing[0])
      nextSteps.push(
        `Draft the ${missing[0].item.label.toLowerCase()} section for ${coverage.title}`,
      );
  }
  if (coverages.length > 1) {
    content.push(
      barChart(
        'Coverage score by document',
        coverages.map((c) => c.coverage.title),
        [{ label: 'Coverage %', data: coverages.map((c) => c.coverage.score) }],
        { max: 100, yTitle: '%' },
      ),
    );
  }

  if (wantsRisk) {
    const title = requestedTitle ?? coverages[0]?.coverage.title ?? 'Organisation';
    const register = yield* callTool('risk_register', () =>
      riskRegister(
        title,
        coverages.map((c) => c.coverage),
      ),
    );
    content.push(
      text(
        `### Risk register\n\nA risk register template${coverages.length ? ' seeded with the gaps found above' : ' with example risks to adapt'}: every risk has a cause, impact and likelihood (1–5), a score, an owner, controls and actions.`,
      ),
      barChart(
        'Risk scores (impact × likelihood)',
        register.rows.map(([r]) => (r.length > 40 ? `${r.slice(0, 39)}…` : r)),
        [{ label: 'Score', data: register.rows.map(([, s]) => s) }],
        { max: 25, horizontal: true },
      ),
      file(fileNameFor(`${title} risk register`, 'md'), register.md),
    );
    nextSteps.push('Assign an owner and a due date to each risk in the register');
  }

  if (boardReq.board) {
    const { body, minutes } = boardReq;
    const pack = yield* callTool('board_pack', () =>
      boardPackSkeleton(
        body,
        coverages.map((c) => c.coverage),
      ),
    );
    const risks = gapRisks(coverages.map((c) => c.coverage));
    const lines = [
      `### ${body} pack${minutes ? ' and minutes' : ''}`,
      '',
      `The file **${fileNameFor(`${body} pack`, 'md')}** is a skeleton of the ${body} pack: cover, agenda, decisions required, risk summary, compliance status and actions log.`,
      coverages.length
        ? `Its risk summary lists ${risks.length} risk${risks.length === 1 ? '' : 's'} from the gaps found above (${risks.filter((r) => r.rating === 'High').length} high, ${risks.filter((r) => r.rating === 'Medium').length} medium, ${risks.filter((r) => r.rating === 'Low').length} low), and its compliance status and actions log come from the same coverage check.`
        : 'No document was reviewed, so the risk summary and compliance status hold placeholders: attach the board papers, policies or risk register (PDF, DOCX, HTML, markdown or text) and ask again to seed them.',
      minutes
        ? `The file **${fileNameFor(`${body} minutes`, 'md')}** is a minutes template that follows the same agenda, with an action tracker (owner, due date, status) and a table for the items carried over from the last meeting.`
        : '',
      '',
      'I cannot read meeting notes into formal minutes or summarise papers in free form without a language model: these templates give the structure, and the figures come only from the checklist rules.',
    ];
    content.push(text(lines.filter((l, i, all) => l !== '' || all[i - 1] !== '').join('\n')));
    content.push(file(fileNameFor(`${body} pack`, 'md'), pack));
    if (minutes) {
      content.push(
        file(
          fileNameFor(`${body} minutes`, 'md'),
          yield* callTool('minutes_template', () => minutesTemplate(body)),
        ),
      );
      nextSteps.push('Record each decision and action in the minutes template during the meeting');
    }
    nextSteps.push(
      coverages.length
        ? 'Confirm the owners and due dates of the actions in the pack'
        : 'Attach the policies or the risk register to seed the risk summary and compliance status',
      'Fill in the agenda and the decisions required, then circulate the pack at least 5 working days before the meeting',
    );
  }

  if (!coverages.length && wantsRisk) {
    content.push(
      text(
        'To seed the register with real gaps, attach the policy or the current register (PDF, DOCX, HTML, markdown or text) and ask again.',
      ),
    );
  } else if (!coverages.length && !boardReq.board) {
    yield 'No policy document to review: preparing the checklist and a policy template';
    const title = requestedTitle ?? 'Policy';
    content.push(
      text(
        [
          `To check a policy I need the document itself: attach it as **PDF, DOCX, HTML, markdown or text** (or paste it into the message), and I will score it against this checklist:`,
          '',
          markdownTable(
            ['Checklist item', 'What it should say'],
            POLICY_CHECKLIST.map((i) => [
              i.label + (i.conditional ? ' (where relevant)' : ''),
              i.guidance,
            ]),
          ),
          '',
          `Meanwhile, the file below is a ${title === 'Policy' ? 'policy' : title} template with every section of the checklist, ready to fill in.`,
        ].join('\n'),
      ),
      file(fileNameFor(`${title} template`, 'md'), fullPolicyTemplate(title)),
    );
    nextSteps.push(
      'Attach the policy document you want checked',
      'Fill in the template and attach it for a coverage check',
      'Prepare a risk register template',
    );
  } else if (coverages.length) {
    nextSteps.push(
      'Attach the related policies to check them the same way',
      'Save the skeleton file and share it with the policy owner',
    );
  }
  content.push(text(HONESTY_NOTE));

  const titles = coverages.map((c) => c.coverage.title).join(', ');
  const taskName = boardReq.board
    ? `${boardReq.minutes ? `${boardReq.body} minutes and action log` : `${boardReq.body} pack`}${titles ? `: ${titles}` : ''}`
    : coverages.length
      ? `Policy gap check: ${coverages.map((c) => c.coverage.title).join(', ')}`
      : wantsRisk
        ? `Risk register: ${requestedTitle ?? 'template'}`
        : problems.length
          ? 'Policy gap check: file problem'
          : requestedTitle
            ? `${requestedTitle}: checklist and template`
            : 'Policy checklist and template';
  return finishReport({ taskName, content, nextSteps: [...new Set(nextSteps)].slice(0, 5) });
}

function tools(attachments: AnalysisContext['attachments']): ToolSet {
  const files = new TurnFiles(attachments);
  return {
    ...commonTools(files),
    policy_coverage: tool({
      description:
        'Score an attached policy document (or given text) against the governance checklist: status of each item (covered, partial, missing, not applicable) with evidence, and a coverage score.',
      inputSchema: z.object({
        file: fileArg,
        text: z
          .string()
          .max(400_000)
          .optional()
          .describe('Policy text, when it is not an attachment'),
      }),
      execute: ({ file: name, text: body }) =>
        toolResult(async () => {
          const c = checkPolicy(body ?? (await files.textOrThrow(name)));
          return {
            title: c.title,
            score: c.score,
            applicable: c.applicable,
            items: c.results.map((r) => ({
              item: r.item.label,
              status: r.status,
              evidence: r.evidence,
            })),
          };
        }),
    }),
    policy_skeleton: tool({
      description:
        'Markdown skeleton of the sections a policy lacks (from policy_coverage), or a full policy template when no file is given.',
      inputSchema: z.object({ file: fileArg, title: z.string().max(200).optional() }),
      execute: ({ file: name, title }) =>
        toolResult(async () => {
          if (!name && !attachments.length)
            return { markdown: fullPolicyTemplate(title ?? 'Policy') };
          const c = checkPolicy(await files.textOrThrow(name));
          return { markdown: policySkeleton(title ?? c.title, c.results) };
        }),
    }),
    board_pack: tool({
      description:
        'Markdown board or committee pack skeleton (cover, agenda, decisions required, risk summary, compliance status, actions log) seeded with the coverage gaps of the attached policies, and optionally a minutes template with an action tracker.',
      inputSchema: z.object({
        body: z.string().min(1).max(100).describe('"Board" or the committee name'),
        minutes: z.boolean().optional(),
      }),
      execute: ({ body, minutes }) =>
        toolResult(async () => {
          const coverages = [];
          for (const name of files.names().slice(0, 5)) {
            const doc = await files.document(name);
            if (doc.ok) coverages.push(checkPolicy(doc.text));
          }
          return {
            pack: boardPackSkeleton(body, coverages),
            ...(minutes ? { minutes: minutesTemplate(body) } : {}),
          };
        }),
    }),
    risk_register: tool({
      description:
        'Markdown risk register template (ID, risk, category, cause, impact, likelihood, score, owner, controls, actions, due, status), seeded with the gaps of an attached policy when given.',
      inputSchema: z.object({ title: z.string().min(1).max(200), file: fileArg }),
      execute: ({ title, file: name }) =>
        toolResult(async () => {
          const gaps =
            name || attachments.length === 1 ? [checkPolicy(await files.textOrThrow(name))] : [];
          return { markdown: riskRegister(title, gaps).md };
        }),
    }),
  };
}

export const governanceAgent: ModuleAgent = {
  key: 'governance',
  instructions: INSTRUCTIONS,
  tools,
  analyze,
};

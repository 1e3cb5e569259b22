import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { DATE_PATTERN, isoDate, readDocuments, type ReadDocument } from '../read';
import { isHeadingLike, stripNumbering } from '../sections';

const MinuteItemSchema = z.object({
  number: z.number(),
  title: z.string(),
  discussion: z.array(z.string()),
  decisions: z.array(z.string()),
});
export type MinuteItem = z.infer<typeof MinuteItemSchema>;
const ActionEntrySchema = z.object({
  ref: z.string(),
  action: z.string(),
  owner: z.string().nullable(),
  /** As written in the notes ("14 Nov", "next meeting"). */
  due: z.string().nullable(),
  /** ISO when the written date could be read. */
  dueDate: z.string().nullable(),
  minute: z.number().nullable(),
  status: z.string(),
});
export type ActionEntry = z.infer<typeof ActionEntrySchema>;
/** An open item of the previous action log: an action's fields, its due date as written. */
const CarriedOverSchema = ActionEntrySchema.pick({
  ref: true,
  action: true,
  owner: true,
  due: true,
  status: true,
});
export type CarriedOver = z.infer<typeof CarriedOverSchema>;
export const MinutesOutput = z.object({
  notesFile: z.string(),
  actionLogFile: z.string().nullable(),
  meeting: z.string(),
  date: z.string().nullable(),
  present: z.array(z.string()),
  apologies: z.array(z.string()),
  inAttendance: z.array(z.string()),
  items: z.array(MinuteItemSchema),
  actions: z.array(ActionEntrySchema),
  carriedOver: z.array(CarriedOverSchema),
  /** Actions with no owner or no due date: the secretary must complete them. */
  incomplete: z.array(z.string()),
  minutes: z.string(),
  actionLogCsv: z.string(),
});
export type MinutesResult = z.infer<typeof MinutesOutput>;

const FIELD =
  /^(present|attendees|attending|in attendance|also present|apologies|apologies received|absent|date|meeting|chair|secretary|location|venue)\s*[:\-–]\s*(.+)$/i;
const DECISION =
  /\b(agreed|approved|resolved|decided|signed off|endorsed|ratified|noted and approved|decision)\b/i;
const ACTION_LINE = /^(?:action(?:s)?|ap|to do|todo)\b\s*(?:point)?\s*[:\-–]?\s*(.+)$/i;
/** "JS to circulate ...", "CFO to ...": an owner, then "to" and a verb. */
const OWNER_TO = /^([A-Z][\w.&'’-]*(?:\s+(?:[A-Z][\w.&'’-]*|of|and|&)){0,4})\s+to\s+(\w.+)$/;
const DONE = /\b(done|closed|complete(?:d)?|finished|delivered)\b/i;

const splitNames = (s: string) =>
  s
    .split(/,|;|\band\b/)
    .map((x) => x.trim().replace(/\.$/, ''))
    .filter(Boolean);

function dueOf(textContent: string): { due: string | null; rest: string } {
  const m = new RegExp(
    `\\b(?:by|before|due|no later than|for)\\s+(?:the\\s+)?(${DATE_PATTERN.source.slice(2, -2)})`,
    'i',
  ).exec(textContent);
  if (!m) return { due: null, rest: textContent };
  return {
    due: m[1]!.trim(),
    rest: (textContent.slice(0, m.index) + textContent.slice(m.index + m[0].length))
      .replace(/\s+([.,;])/g, '$1')
      .trim(),
  };
}

/** The previous action log: table rows (markdown pipes, tabs) or "ref - action - owner - due - status" lines. */
function previousActions(doc: ReadDocument): CarriedOver[] {
  const out: CarriedOver[] = [];
  for (const raw of doc.text.split('\n')) {
    const cells = raw.includes('|')
      ? raw
          .split('|')
          .map((c) => c.trim())
          .filter((c, i, all) => !(c === '' && (i === 0 || i === all.length - 1)))
      : raw.includes('\t')
        ? raw.split('\t').map((c) => c.trim())
        : raw.split(/\s+[-–]\s+/).map((c) => c.trim());
    if (cells.length < 3 || cells.every((c) => /^:?-{2,}:?$/.test(c) || !c)) continue;
    const status = cells.find((c) =>
      /^(open|in progress|overdue|done|closed|complete(d)?|ongoing|not started|on hold|carried (forward|over))$/i.test(
        c,
      ),
    );
    if (!status) continue;
    if (/^(ref|#|id|action)$/i.test(cells[0]!)) continue;
    const ref = /^[A-Z]{0,3}\d+(\.\d+)?$/i.test(cells[0]!) ? cells[0]! : `P${out.length + 1}`;
    const rest = cells
      .filter((c) => c !== cells[0] || ref !== cells[0])
      .filter((c) => c !== status);
    const action = rest.sort((a, b) => b.length - a.length)[0] ?? '';
    const due = rest.find((c) => DATE_PATTERN.test(c) && c.length < 25) ?? null;
    const owner = rest.find((c) => c !== action && c !== due && c.length < 40) ?? null;
    out.push({ ref, action, owner, due, status });
  }
  return out;
}

/**
 * Turns meeting notes into formal minutes and an action log: the header fields (date, present,
 * apologies), the agenda items in order with what was discussed and decided, every action with
 * its owner and due date as the notes give them (missing ones are listed, never guessed), and the
 * open items of the last action log carried over.
 */
export const minutesFromNotes = withOutput(
  MinutesOutput,
  defineTool({
    name: 'minutes_from_notes',
    description:
      "Turn attached meeting notes into formal minutes and an action log (owner and due date per action), and list the open items of last meeting's action log as carried over. Restates the notes; invents no owner or date.",
    input: z.object({
      notes: z.string().max(255).optional().describe('File name of the meeting notes'),
      actionLog: z.string().max(255).optional().describe("File name of last meeting's action log"),
      body: z.string().max(100).default('Board').describe('"Board" or the committee name'),
    }),
    async run(ctx, { notes, actionLog, body }): Promise<MinutesResult> {
      const { docs, problems } = await readDocuments(ctx);
      const isLog = (d: ReadDocument) =>
        actionLog
          ? d.fileName === actionLog
          : /action|tracker|log/i.test(d.fileName) || previousActions(d).length >= 2;
      const notesDoc =
        (notes && docs.find((d) => d.fileName === notes)) || docs.find((d) => !isLog(d)) || null;
      if (!notesDoc)
        throw new ToolError(
          problems[0] ?? 'No meeting notes are attached: attach them as DOCX, markdown or text.',
        );
      const logDoc = docs.find((d) => d !== notesDoc && isLog(d)) ?? null;

      const lines = notesDoc.text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const present: string[] = [];
      const apologies: string[] = [];
      const inAttendance: string[] = [];
      let date: string | null = null;
      const items: MinuteItem[] = [];
      const actions: ActionEntry[] = [];
      let current: MinuteItem | null = null;
      const year = Number(/\b(20\d{2})\b/.exec(notesDoc.text)?.[1] ?? new Date().getUTCFullYear());
      const NUMBERED = /^(?:item\s*)?(\d{1,2})[.):]?\s+(.{3,80})$/i;
      // Numbered notes start an item only on a numbered line; others on heading-like lines.
      const hasNumbered = lines.some((l) => NUMBERED.test(l) && !/[.!?]$/.test(l));
      const isAttendee = (owner: string) =>
        present.some(
          (p) =>
            p.toLowerCase().startsWith(owner.toLowerCase()) ||
            owner.toLowerCase() === p.split(/\s+/)[0]!.toLowerCase() ||
            p.includes(`(${owner})`),
        );
      for (const [i, line] of lines.entries()) {
        if (i === 0 && /notes|meeting|minutes/i.test(line) && isHeadingLike(line)) continue;
        const field = FIELD.exec(line);
        if (field) {
          const key = field[1]!.toLowerCase();
          if (/present|attend/.test(key) && !/in attendance|also/.test(key))
            present.push(...splitNames(field[2]!));
          else if (/in attendance|also present/.test(key))
            inAttendance.push(...splitNames(field[2]!));
          else if (/apolog|absent/.test(key)) apologies.push(...splitNames(field[2]!));
          else if (key === 'date') date = field[2]!.trim();
          continue;
        }
        const numbered = NUMBERED.exec(line);
        if (
          (numbered && !/[.!?]$/.test(line)) ||
          (!hasNumbered &&
            isHeadingLike(line) &&
            !/^[a-z]/.test(line) &&
            line.length < 60 &&
            !ACTION_LINE.test(line) &&
            !OWNER_TO.test(line))
        ) {
          current = {
            number: items.length + 1,
            title: stripNumbering(line)
              .replace(/[:\-–]+$/, '')
              .trim(),
            discussion: [],
            decisions: [],
          };
          items.push(current);
          continue;
        }
        if (!current) {
          current = { number: 1, title: 'Opening', discussion: [], decisions: [] };
          items.push(current);
        }
        const body = line.replace(/^[-*•–]\s*/, '');
        const act = ACTION_LINE.exec(body);
        const ownerTo = OWNER_TO.exec(act ? act[1]! : body);
        if (act || (ownerTo && (/\b(by|before|due)\b/i.test(body) || isAttendee(ownerTo[1]!)))) {
          const textOf = act ? act[1]! : body;
          const o = OWNER_TO.exec(textOf);
          const owner = o
            ? o[1]!.trim()
            : (/\((?:owner:?\s*)?([A-Z][\w .&-]{1,30})\)/.exec(textOf)?.[1]?.trim() ?? null);
          const what = o
            ? o[2]!
            : textOf.replace(/\((?:owner:?\s*)?[A-Z][\w .&-]{1,30}\)/, '').trim();
          const { due, rest } = dueOf(what);
          actions.push({
            ref: `A${String(actions.length + 1).padStart(2, '0')}`,
            action: rest.replace(/[.;]$/, '').replace(/^\w/, (c) => c.toUpperCase()),
            owner,
            due,
            dueDate: due ? isoDate(due, year) : null,
            minute: current.number,
            status: 'Open',
          });
          continue;
        }
        if (DECISION.test(body)) current.decisions.push(body.replace(/[.;]$/, ''));
        else current.discussion.push(body.replace(/[.;]$/, ''));
      }
      if (date === null) date = DATE_PATTERN.exec(lines.slice(0, 4).join(' '))?.[0] ?? null;
      const previous = logDoc ? previousActions(logDoc) : [];
      const carriedOver = previous.filter((p) => !DONE.test(p.status));
      const incomplete = actions
        .filter((a) => !a.owner || !a.due)
        .map(
          (a) =>
            `${a.ref} "${a.action}": ${!a.owner && !a.due ? 'no owner and no due date' : !a.owner ? 'no owner' : 'no due date'} in the notes`,
        );
      const meeting = `${body} meeting`;
      const record: MeetingRecord = {
        date,
        present,
        apologies,
        inAttendance,
        items,
        actions,
        carriedOver,
      };
      return {
        notesFile: notesDoc.fileName,
        actionLogFile: logDoc?.fileName ?? null,
        meeting,
        ...record,
        incomplete,
        minutes: formalMinutes(body, record),
        actionLogCsv: actionLogCsv(actions, carriedOver),
      };
    },
  }),
);

const sentence = (s: string) => {
  const t = s.trim().replace(/^\w/, (c) => c.toUpperCase());
  return /[.!?]$/.test(t) ? t : `${t}.`;
};

/** What the minutes record of a meeting: who came, the items, the actions, the carried-over ones. */
type MeetingRecord = Pick<
  MinutesResult,
  'date' | 'present' | 'apologies' | 'inAttendance' | 'items' | 'actions' | 'carriedOver'
>;

function formalMinutes(
  body: string,
  { date, present, apologies, inAttendance, items, actions, carriedOver: carried }: MeetingRecord,
): string {
  const parts = [
    `# Minutes of the meeting of the ${body}`,
    '',
    `**Date:** ${date ?? '[not stated in the notes]'}`,
    `**Present:** ${present.join(', ') || '[not stated in the notes]'}`,
    ...(inAttendance.length ? [`**In attendance:** ${inAttendance.join(', ')}`] : []),
    `**Apologies:** ${apologies.join(', ') || 'None recorded'}`,
    '',
  ];
  for (const item of items) {
    parts.push(`## ${item.number}. ${item.title}`, '');
    if (item.discussion.length)
      parts.push(
        `The ${body} discussed the following. ${item.discussion.map(sentence).join(' ')}`,
        '',
      );
    for (const d of item.decisions) parts.push(`**Resolved:** ${sentence(d)}`, '');
    for (const a of actions.filter((x) => x.minute === item.number))
      parts.push(
        `**Action ${a.ref}:** ${sentence(a.action)} Owner: ${a.owner ?? '[to be confirmed]'}. Due: ${a.due ?? '[to be confirmed]'}.`,
        '',
      );
  }
  parts.push(
    '## Action log',
    '',
    '| Ref | Action | Owner | Due | Status | Minute |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const a of actions)
    parts.push(
      `| ${a.ref} | ${a.action} | ${a.owner ?? '[to be confirmed]'} | ${a.due ?? '[to be confirmed]'} | ${a.status} | ${a.minute ?? ''} |`,
    );
  parts.push('', '## Items carried over from the last meeting', '');
  if (carried.length) {
    parts.push(
      '| Ref | Action | Owner | Original due | Status |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const c of carried)
      parts.push(`| ${c.ref} | ${c.action} | ${c.owner ?? ''} | ${c.due ?? ''} | ${c.status} |`);
  } else parts.push('None: no open items from the last action log were attached.');
  parts.push('', 'Signed as a true record: ______________________ (Chair)   Date: __________', '');
  return parts.join('\n');
}

const csvCell = (v: string | number | null) => {
  const s = String(v ?? '');
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function actionLogCsv(actions: ActionEntry[], carried: CarriedOver[]): string {
  const rows: Array<Array<string | number | null>> = [
    ['Ref', 'Action', 'Owner', 'Due', 'Status', 'Source'],
  ];
  for (const a of actions)
    rows.push([a.ref, a.action, a.owner, a.dueDate ?? a.due, a.status, `Minute ${a.minute}`]);
  for (const c of carried) rows.push([c.ref, c.action, c.owner, c.due, c.status, 'Carried over']);
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}

import type { ToolCallRecord } from '../../../tools/tool';
import type { PlanContext } from '../../module';
import type { ChecklistKey } from '../checklists';
import { checklistCoverage } from '../tools/checklist';

/** What the capabilities' plans read of the turn: its documents, its tables, earlier reports. */

/** The documents a plan works on: the first five attached. */
export const documents = (ctx: PlanContext) =>
  ctx.files.filter((f) => f.kind === 'document').slice(0, 5);
export const tables = (ctx: PlanContext) => ctx.files.filter((f) => f.kind === 'table');

const BODY =
  /\b(audit(?: and risk)?|risk|remuneration|nomination|nominations|finance|people|esg)\s+committee\b/i;

export function bodyOf(request: string): string {
  const m = BODY.exec(request);
  if (m) return `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1).toLowerCase()} Committee`;
  return /\bcommittee\b/i.test(request) ? 'Committee' : 'Board';
}

/** A checklist over each attached document (up to five), or over a policy pasted in the message. */
export function perDocument(ctx: PlanContext, checklist: ChecklistKey): ToolCallRecord[] {
  const docs = documents(ctx);
  // A policy pasted into the message (long, several lines) is checked like an attached one.
  const pasted =
    !docs.length && ctx.request.split(/\s+/).length >= 80 && /\n/.test(ctx.request)
      ? // The instruction line above the policy ("Check this policy:") is not part of it.
        ctx.request.replace(/^[^\n]{0,120}:\s*\n/, '')
      : null;
  return pasted
    ? [{ tool: checklistCoverage.name, input: { checklist, text: pasted } }]
    : docs.map((d) => ({ tool: checklistCoverage.name, input: { checklist, file: d.fileName } }));
}

import { z } from 'zod';
import { defineTool } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { cellText, readRegister, REGISTERS } from './registers';

const GiftEntrySchema = z.object({
  row: z.number(),
  description: z.string(),
  counterparty: z.string().nullable(),
  value: z.number().nullable(),
  issues: z.array(z.string()),
});
export type GiftEntry = z.infer<typeof GiftEntrySchema>;
export const GiftsRegisterOutput = z.object({
  source: z.string(),
  entries: z.number(),
  threshold: z.number(),
  aboveThreshold: z.array(GiftEntrySchema),
  notApproved: z.array(GiftEntrySchema),
  publicOfficials: z.array(GiftEntrySchema),
  noValue: z.array(GiftEntrySchema),
  repeatCounterparties: z.array(
    z.object({ counterparty: z.string(), entries: z.number(), total: z.number() }),
  ),
});
export type GiftsRegisterReview = z.infer<typeof GiftsRegisterOutput>;

/**
 * Reviews a gifts and hospitality register: entries above the approval threshold, entries with
 * no recorded approval, gifts to or from public officials, entries without a value, and
 * counterparties that appear several times (a pattern the policy should catch).
 */
export const giftsRegisterReview = withOutput(
  GiftsRegisterOutput,
  defineTool({
    name: 'gifts_register_review',
    description:
      'Review an attached gifts and hospitality register (CSV/XLSX): entries above the approval threshold (default 100, or as stated), without approval, involving public officials, without a value, and repeat counterparties.',
    input: z.object({ threshold: z.number().min(0).max(1_000_000).default(100) }),
    async run(ctx, { threshold }): Promise<GiftsRegisterReview> {
      const reg = await readRegister(ctx, REGISTERS.gifts);
      const c = {
        description: reg.col(/description|gift|hospitality|item|details/i, /value|date|approv/i),
        counterparty: reg.col(
          /counterparty|recipient|donor|from|to|company|organisation|given by|received from|third party/i,
        ),
        value: reg.col(/value|amount|cost|£|€|\$/i),
        approved: reg.col(/approv|authoris|authoriz|sign/i),
        official: reg.col(/public|official|government|pep/i),
      };
      const entries: GiftEntry[] = [];
      reg.rows.forEach((row, i) => {
        const value = Number(cellText(row, c.value));
        const approved = cellText(row, c.approved);
        const official = cellText(row, c.official);
        const description = cellText(row, c.description) ?? `Row ${i + 1}`;
        const e: GiftEntry = {
          row: i + 1,
          description,
          counterparty: cellText(row, c.counterparty),
          value: Number.isFinite(value) && cellText(row, c.value) !== null ? value : null,
          issues: [],
        };
        if (e.value === null) e.issues.push('no value');
        else if (e.value > threshold) e.issues.push(`above the ${threshold} threshold`);
        if (!approved || /^(no|n|pending|tbc|not approved)$/i.test(approved))
          e.issues.push('no approval recorded');
        if (
          (official && /^(yes|y|true)$/i.test(official)) ||
          /\b(official|minister|council|government|customs|regulator|mp)\b/i.test(
            `${description} ${e.counterparty ?? ''}`,
          )
        )
          e.issues.push('public official');
        entries.push(e);
      });
      const counts = new Map<string, { entries: number; total: number }>();
      for (const e of entries) {
        if (!e.counterparty) continue;
        const k = e.counterparty;
        const cur = counts.get(k) ?? { entries: 0, total: 0 };
        cur.entries++;
        cur.total += e.value ?? 0;
        counts.set(k, cur);
      }
      return {
        source: reg.table.source,
        entries: entries.length,
        threshold,
        aboveThreshold: entries.filter((e) => e.issues.some((x) => x.startsWith('above'))),
        notApproved: entries.filter((e) => e.issues.includes('no approval recorded')),
        publicOfficials: entries.filter((e) => e.issues.includes('public official')),
        noValue: entries.filter((e) => e.issues.includes('no value')),
        repeatCounterparties: [...counts]
          .filter(([, v]) => v.entries >= 3)
          .map(([counterparty, v]) => ({ counterparty, ...v }))
          .sort((a, b) => b.entries - a.entries),
      };
    },
  }),
);

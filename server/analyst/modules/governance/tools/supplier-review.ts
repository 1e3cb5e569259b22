import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { asOfOf, cellText, dateOf, daysBetween, readRegister, REGISTERS } from './registers';

const RatingSchema = z.enum(['High', 'Medium', 'Low', 'Unknown']);
type Rating = z.infer<typeof RatingSchema>;
const SupplierRatingSchema = z.object({
  supplier: z.string(),
  dataAccess: RatingSchema,
  concentration: RatingSchema,
  financialHealth: RatingSchema,
  exitPlan: RatingSchema,
  overall: RatingSchema,
  /** Why due diligence needs a refresh, or null. */
  dueDiligence: z.string().nullable(),
  spendShare: z.number().nullable(),
});
export type SupplierRating = z.infer<typeof SupplierRatingSchema>;
export const SupplierReviewOutput = z.object({
  source: z.string(),
  asOf: z.string(),
  suppliers: z.array(SupplierRatingSchema),
  refresh: z.array(SupplierRatingSchema),
  columns: z.record(z.string(), z.string().nullable()),
});
export type SupplierReview = z.infer<typeof SupplierReviewOutput>;

const word = (v: string | null): Rating => {
  if (!v) return 'Unknown';
  const w = v.toLowerCase();
  if (/^(yes|y|true)$/.test(w)) return 'High';
  if (/^(no|n|false|none)$/.test(w)) return 'Low';
  if (
    /high|critical|severe|special|sensitive|personal|customer|full|red|poor|weak|distress|watch/.test(
      w,
    )
  )
    return 'High';
  if (/medium|moderate|amber|limited|internal|adequate|fair/.test(w)) return 'Medium';
  if (/low|minimal|green|strong|good|public/.test(w)) return 'Low';
  const n = Number(w);
  if (Number.isFinite(n)) return n >= 4 ? 'High' : n >= 3 ? 'Medium' : 'Low';
  return 'Unknown';
};
const RANK: Record<Rating, number> = { High: 3, Medium: 2, Low: 1, Unknown: 0 };

/**
 * Rates each critical supplier on data access, concentration (share of spend, or single
 * source), financial health and exit plan (High = more risk), and lists those whose due
 * diligence needs a refresh: none recorded, older than 12 months at the as-of date, or a
 * contract ending within 6 months.
 */
export const supplierRiskReview = withOutput(
  SupplierReviewOutput,
  defineTool({
    name: 'supplier_risk_review',
    description:
      'Rate each supplier in an attached list (CSV/XLSX) on data access, concentration (share of spend or sole supplier), financial health and exit plan, and list the contracts whose due diligence needs a refresh (none, over 12 months old, or contract ending within 6 months).',
    input: z.object({}),
    async run(ctx): Promise<SupplierReview> {
      const reg = await readRegister(ctx, REGISTERS.supplier);
      const c = {
        supplier: reg.col(/supplier|vendor|provider|name|company/i, /contact|owner|id$/i),
        data: reg.col(/data|access|information|personal/i),
        spend: reg.col(/spend|value|cost|amount|annual/i, /date/i),
        sole: reg.col(/sole|single|alternative|substitut|concentration|critical/i),
        financial: reg.col(/financ|credit|rating|health|solvency/i),
        exit: reg.col(/exit|transition|termination plan|contingency/i),
        lastDd: reg.col(/due diligence|dd|last (review|assessment)|assessed|reviewed/i),
        contractEnd: reg.col(/end|expir|renewal|term/i, /start/i),
      };
      if (!c.supplier) throw new ToolError(`${reg.table.source} has no supplier name column.`);
      const asOf = asOfOf(reg.set);
      const spends = reg.rows
        .map((r) => Number(cellText(r, c.spend)))
        .filter((n) => Number.isFinite(n) && n > 0);
      const totalSpend = spends.reduce((s, n) => s + n, 0);
      const suppliers: SupplierRating[] = [];
      for (const row of reg.rows) {
        const supplier = cellText(row, c.supplier);
        if (!supplier) continue;
        const spend = Number(cellText(row, c.spend));
        const share = totalSpend && Number.isFinite(spend) ? spend / totalSpend : null;
        const soleText = cellText(row, c.sole);
        const concentration: Rating =
          soleText && /sole|single|none|no alternative|^yes$|high/i.test(soleText)
            ? 'High'
            : share !== null
              ? share >= 0.25
                ? 'High'
                : share >= 0.1
                  ? 'Medium'
                  : 'Low'
              : word(soleText);
        const exitText = cellText(row, c.exit);
        // An exit plan that exists is low risk; none or not tested is high.
        const exitPlan: Rating = !exitText
          ? 'Unknown'
          : /^(no|none|n|missing|not (in place|documented)|tbc)$/i.test(exitText)
            ? 'High'
            : /draft|partial|untested|not tested|outdated/i.test(exitText)
              ? 'Medium'
              : /^(yes|y|in place|documented|tested)/i.test(exitText)
                ? 'Low'
                : word(exitText);
        const ratings = {
          dataAccess: word(cellText(row, c.data)),
          concentration,
          financialHealth: word(cellText(row, c.financial)),
          exitPlan,
        };
        const top = Math.max(...Object.values(ratings).map((r) => RANK[r]));
        const overall: Rating =
          top === 3 ? 'High' : top === 2 ? 'Medium' : top === 1 ? 'Low' : 'Unknown';
        const last = dateOf(row, c.lastDd);
        const end = dateOf(row, c.contractEnd);
        const reasons: string[] = [];
        if (!last) reasons.push('no due diligence date recorded');
        else if (daysBetween(last, asOf) > 365)
          reasons.push(`last due diligence ${last}, over 12 months before ${asOf}`);
        if (end && daysBetween(asOf, end) <= 183 && daysBetween(asOf, end) >= 0)
          reasons.push(`contract ends ${end}`);
        suppliers.push({
          supplier,
          ...ratings,
          overall,
          dueDiligence: reasons.length ? reasons.join('; ') : null,
          spendShare: share === null ? null : Math.round(share * 1000) / 10,
        });
      }
      suppliers.sort((a, b) => RANK[b.overall] - RANK[a.overall]);
      return {
        source: reg.table.source,
        asOf,
        suppliers,
        refresh: suppliers.filter((s) => s.dueDiligence),
        columns: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v?.name ?? null])),
      };
    },
  }),
);

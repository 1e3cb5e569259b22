import { z } from 'zod';
import { defineTool, ToolError } from '../../../tools/tool';
import { withOutput } from '../capabilities/output';
import { asOfOf, cellText, dateOf, readRegister, REGISTERS, scoreOf } from './registers';

const RegisterRiskSchema = z.object({
  id: z.string(),
  risk: z.string(),
  owner: z.string().nullable(),
  likelihood: z.number().nullable(),
  impact: z.number().nullable(),
  score: z.number().nullable(),
  previousScore: z.number().nullable(),
  drift: z.number().nullable(),
  mitigation: z.string().nullable(),
  due: z.string().nullable(),
  issues: z.array(z.string()),
});
export type RegisterRisk = z.infer<typeof RegisterRiskSchema>;
export const RiskRegisterReviewOutput = z.object({
  source: z.string(),
  asOf: z.string(),
  columns: z.record(z.string(), z.string().nullable()),
  total: z.number(),
  risks: z.array(RegisterRiskSchema),
  noOwner: z.array(z.string()),
  noDueDate: z.array(z.string()),
  noMitigation: z.array(z.string()),
  overdueReview: z.array(z.string()),
  /** heatMap[impact-1][likelihood-1] = number of risks. */
  heatMap: z.array(z.array(z.number())),
  unscored: z.array(z.string()),
  drift: z.object({
    up: z.array(RegisterRiskSchema),
    down: z.array(RegisterRiskSchema),
    compared: z.number(),
    basis: z.string().nullable(),
  }),
  /** Scoring columns with cells that could not be read as numbers (e.g. "High" among 1-5 scores). */
  unreadable: z.array(z.object({ column: z.string(), cells: z.number() })),
});
export type RiskRegisterReview = z.infer<typeof RiskRegisterReviewOutput>;

/**
 * Health check of a risk register: risks without an owner, a due or review date or a
 * mitigation; reviews past their date; score drift against last quarter's score (a previous
 * score column, or previous likelihood and impact); and the heat map of likelihood against
 * impact (counts of current risks per cell, score = likelihood × impact).
 */
export const riskRegisterReview = withOutput(
  RiskRegisterReviewOutput,
  defineTool({
    name: 'risk_register_review',
    description:
      'Health check of an attached risk register (CSV/XLSX): risks with no owner, due/review date or mitigation, overdue reviews, score drift since last quarter (from a previous score or previous likelihood/impact columns), and a 5x5 heat map of likelihood against impact. Words such as High/Medium/Low are read as 4/3/2.',
    input: z.object({}),
    async run(ctx): Promise<RiskRegisterReview> {
      const reg = await readRegister(ctx, REGISTERS.risk);
      const PREV = /prev|last|prior|q[1-4]|before|old|was/i;
      const c = {
        id: reg.col(/^(risk )?(id|ref|no\.?|#|number)$/i),
        risk: reg.col(
          /risk|description|title|event/i,
          /id$|ref|owner|score|rating|likelihood|impact|prob/i,
        ),
        owner: reg.col(/owner|responsible|accountable|lead/i),
        likelihood: reg.col(/likelihood|probability|prob\b|chance/i, PREV),
        impact: reg.col(/impact|severity|consequence/i, PREV),
        score: reg.col(/score|rating|rag/i, PREV),
        prevScore: reg.col(
          /(prev|last|prior|q[1-4]|old).*(score|rating)|(score|rating).*(prev|last|prior|q[1-4])/i,
        ),
        prevLikelihood: reg.col(
          /(prev|last|prior|q[1-4]|old).*(likelihood|probability)|(likelihood|probability).*(prev|last|prior)/i,
        ),
        prevImpact: reg.col(
          /(prev|last|prior|q[1-4]|old).*(impact|severity)|(impact|severity).*(prev|last|prior)/i,
        ),
        mitigation: reg.col(/mitigat|control|action|treatment|response/i, /owner|date|due/i),
        due: reg.col(/due|review date|next review|target date|deadline|action date/i),
      };
      if (!c.risk)
        throw new ToolError(
          `${reg.table.source} has no column for the risk itself (e.g. "Risk" or "Description").`,
        );
      const asOf = asOfOf(reg.set);
      const risks: RegisterRisk[] = [];
      reg.rows.forEach((row, i) => {
        const risk = cellText(row, c.risk);
        if (!risk) return;
        const likelihood = scoreOf(row, c.likelihood);
        const impact = scoreOf(row, c.impact);
        const stated = c.score ? Number(cellText(row, c.score)) : NaN;
        const score =
          likelihood !== null && impact !== null
            ? likelihood * impact
            : Number.isFinite(stated)
              ? stated
              : null;
        const pl = scoreOf(row, c.prevLikelihood);
        const pi = scoreOf(row, c.prevImpact);
        const ps = c.prevScore ? Number(cellText(row, c.prevScore)) : NaN;
        const previousScore =
          Number.isFinite(ps) && cellText(row, c.prevScore) !== null
            ? ps
            : pl !== null && pi !== null
              ? pl * pi
              : null;
        const due = dateOf(row, c.due) ?? cellText(row, c.due);
        const owner = cellText(row, c.owner);
        const mitigation = cellText(row, c.mitigation);
        const issues: string[] = [];
        if (!owner) issues.push('no owner');
        if (!due) issues.push('no due or review date');
        if (!mitigation) issues.push('no mitigation');
        if (due && /^\d{4}-\d{2}-\d{2}$/.test(due) && due < asOf)
          issues.push(`review overdue (${due})`);
        risks.push({
          id: cellText(row, c.id) ?? `Row ${i + 1}`,
          risk,
          owner,
          likelihood,
          impact,
          score,
          previousScore,
          drift: score !== null && previousScore !== null ? score - previousScore : null,
          mitigation,
          due,
          issues,
        });
      });
      const heatMap = Array.from({ length: 5 }, () => Array<number>(5).fill(0));
      for (const r of risks)
        if (r.likelihood && r.impact) heatMap[r.impact - 1]![r.likelihood - 1]!++;
      const compared = risks.filter((r) => r.drift !== null);
      const label = (r: RegisterRisk) => `${r.id}: ${r.risk}`;
      const scoring = [
        c.likelihood,
        c.impact,
        c.score,
        c.prevScore,
        c.prevLikelihood,
        c.prevImpact,
      ];
      const unreadable = scoring
        .filter((x, k, all) => x && x.unparsed > 0 && all.indexOf(x) === k)
        .map((x) => ({ column: x!.name, cells: x!.unparsed }));
      return {
        source: reg.table.source,
        asOf,
        columns: Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v?.name ?? null])),
        total: risks.length,
        risks,
        noOwner: risks.filter((r) => !r.owner).map(label),
        noDueDate: risks.filter((r) => !r.due).map(label),
        noMitigation: risks.filter((r) => !r.mitigation).map(label),
        overdueReview: risks
          .filter((r) => r.issues.some((x) => x.startsWith('review overdue')))
          .map(label),
        heatMap,
        unscored: risks.filter((r) => !r.likelihood || !r.impact).map(label),
        drift: {
          up: compared.filter((r) => r.drift! > 0).sort((a, b) => b.drift! - a.drift!),
          down: compared.filter((r) => r.drift! < 0).sort((a, b) => a.drift! - b.drift!),
          compared: compared.length,
          basis:
            c.prevScore?.name ??
            (c.prevLikelihood && c.prevImpact
              ? `${c.prevLikelihood.name} × ${c.prevImpact.name}`
              : null),
        },
        unreadable,
      };
    },
  }),
);

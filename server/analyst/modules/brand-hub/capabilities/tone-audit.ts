import { defineCapability } from '../../../capability';
import { copyReview } from './copy-review';

const task = {
  key: 'tone-audit',
  title: 'Tone audit',
  words: /\b(tone audit|audit\w* the tone|website page|landing page copy)\b/i,
} as const;

/** A tone audit of a page: the copy review of it, titled as the audit asked for. */
export const toneAudit = defineCapability({
  task,
  tool: copyReview.tool,
  plan: copyReview.plan,
  render: (result, ctx) => ({
    ...copyReview.render(result, ctx),
    title: `${task.title}: ${result.reviews[0]!.source}`,
  }),
});

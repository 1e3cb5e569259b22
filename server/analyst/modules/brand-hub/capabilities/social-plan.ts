import { z } from 'zod';
import { defineCapability } from '../../../capability';
import { laidOut, section, table, type Section } from '../../../report/section';
import { barChart } from '../../../tools/charts';
import { file } from '../../../tools/reports';
import { list } from '../../report-parts';
import { defineTool } from '../../../tools/tool';
import { briefInputFrom } from '../generators';
import { isTableName, num, pick } from '../read';

const Output = z.object({
  subject: z.string(),
  audience: z.string().nullable(),
  channels: z.array(z.string()),
  posts: z.array(
    z.object({
      week: z.number(),
      channel: z.string(),
      day: z.string(),
      format: z.string(),
      idea: z.string(),
      draft: z.string(),
    }),
  ),
  bestDays: z.array(z.object({ channel: z.string(), day: z.string(), basis: z.string() })),
  formatMix: z.array(z.object({ channel: z.string(), format: z.string(), posts: z.number() })),
  csv: z.string(),
});
export type SocialPlan = z.infer<typeof Output>;
type SocialPost = SocialPlan['posts'][number];

const FORMATS: Record<string, string[]> = {
  LinkedIn: ['Text and image', 'Carousel', 'Short video', 'Poll'],
  Instagram: ['Reel', 'Carousel', 'Single image', 'Story'],
};
/** General guidance when no past performance is attached, said as such in the result. */
const USUAL_DAYS: Record<string, string[]> = {
  LinkedIn: ['Tuesday', 'Wednesday', 'Thursday'],
  Instagram: ['Wednesday', 'Friday', 'Sunday'],
};
const IDEAS = [
  ['The problem', "Name the everyday problem {subject} solves, in the customer's words."],
  ['How it works', 'Show {subject} in three steps.'],
  ['Customer voice', 'A customer says what changed for them.'],
  ['Behind the scenes', 'Meet the people who build and support {subject}.'],
  ['Tip', 'One practical tip {audience} can use today.'],
  ['Myth vs fact', 'Correct one thing people get wrong about the topic.'],
  ['Question', 'Ask {audience} what slows them down.'],
  ['Offer', 'A clear call to action with what happens next.'],
];

/**
 * A month of social posts for LinkedIn and Instagram: three a week per channel, each with an
 * idea, a copy draft and a format from a mix per channel; the best posting days come from past
 * post performance when it is attached (engagement per impression by weekday), else from
 * general guidance, and the result says which.
 */
const tool = defineTool({
  name: 'social_plan',
  description:
    'Plan a month of social media posts (LinkedIn and Instagram unless others are named): post ideas, copy drafts, best posting days (from attached past post performance by weekday when given, else general guidance, said as such) and a mix of formats.',
  input: z.object({ description: z.string().min(1).max(4000) }),
  async run(ctx, { description }): Promise<SocialPlan> {
    const input = briefInputFrom(description);
    const channels = input.channels.filter((c) => c === 'LinkedIn' || c === 'Instagram');
    const use = channels.length ? channels : ['LinkedIn', 'Instagram'];
    const bestDays: SocialPlan['bestDays'] = [];
    if (ctx.fileNames.some(isTableName)) {
      const set = await ctx.tables();
      if (set.tables.length) {
        const { table, col } = pick(set, /date|channel|engagement|impression/i);
        const date = col(/date|published|posted/i);
        const channel = col(/channel|platform|network/i);
        const eng = col(/engagement|interactions|likes/i, /rate/i);
        const imp = col(/impression|reach|views/i);
        if (date?.type === 'date' && eng && imp) {
          const rows = await set.query(
            `SELECT ${channel ? channel.sql : "'All'"} AS ch, dayname(${date.sql}) AS d, SUM(${eng.sql}) / NULLIF(SUM(${imp.sql}), 0) AS r FROM ${table.sql} GROUP BY 1, 2 ORDER BY 1, 3 DESC`,
          );
          for (const ch of use) {
            const best =
              rows.find((r) => String(r.ch).toLowerCase() === ch.toLowerCase()) ??
              rows.find((r) => r.ch === 'All');
            if (best)
              bestDays.push({
                channel: ch,
                day: String(best.d),
                basis: `highest engagement per impression in ${table.source} (${(num(best.r) * 100).toFixed(1)}%)`,
              });
          }
        }
      }
    }
    for (const ch of use)
      if (!bestDays.some((b) => b.channel === ch))
        bestDays.push({
          channel: ch,
          day: USUAL_DAYS[ch]![0]!,
          basis: 'general guidance for the channel (no past performance attached for it)',
        });
    const subject =
      /linkedin|instagram/i.test(input.subject) || input.subject === 'the campaign'
        ? 'your product'
        : input.subject;
    const audience = input.audience ?? 'your audience';
    const posts: SocialPost[] = [];
    let n = 0;
    for (let week = 1; week <= 4; week++)
      for (const ch of use)
        for (let k = 0; k < 3; k++) {
          const [idea, prompt] = IDEAS[n % IDEAS.length]!;
          const best = bestDays.find((b) => b.channel === ch)!.day;
          const days = [best, ...USUAL_DAYS[ch]!.filter((d) => d !== best)];
          posts.push({
            week,
            channel: ch,
            day: days[k % days.length]!,
            format: FORMATS[ch]![(n + k) % FORMATS[ch]!.length]!,
            idea: `${idea}: ${prompt!.replace('{subject}', subject).replace('{audience}', audience)}`,
            draft:
              ch === 'LinkedIn'
                ? `${idea === 'Question' ? `What slows ${audience} down most?` : `[Hook about ${subject}.]`} [Two short lines with the detail.] [Call to action.]`
                : `[One-line hook about ${subject}] [Emoji-free caption, 2 lines] [3 hashtags]`,
          });
          n++;
        }
    const formatMix = use.flatMap((ch) =>
      FORMATS[ch]!.map((format) => ({
        channel: ch,
        format,
        posts: posts.filter((p) => p.channel === ch && p.format === format).length,
      })),
    );
    const csv = `Week,Channel,Day,Format,Idea,Copy draft\n${posts.map((p) => [p.week, p.channel, p.day, p.format, p.idea, p.draft].map((v) => `"${String(v).replace(/"/g, '""')}"`).join(',')).join('\n')}\n`;
    return { subject, audience: input.audience, channels: use, posts, bestDays, formatMix, csv };
  },
});

const task = {
  key: 'social',
  title: 'Social media content plan',
  words:
    /\b(social media (posts|plan)|month of (social )?posts|posts for linkedin|linkedin and instagram)\b/i,
} as const;

function render(s: SocialPlan): Section {
  const posts = table<SocialPlan['posts'][number]>(
    [
      { header: 'Week', value: (p) => p.week },
      { header: 'Channel', value: (p) => p.channel },
      { header: 'Day', value: (p) => p.day },
      { header: 'Format', value: (p) => p.format },
      { header: 'Idea', value: (p) => p.idea },
      { header: 'Copy draft', value: (p) => p.draft },
    ],
    s.posts,
  );
  const mix = table<SocialPlan['formatMix'][number]>(
    [
      { header: 'Channel', value: (f) => f.channel },
      { header: 'Format', value: (f) => f.format },
      { header: 'Posts', value: (f) => f.posts },
    ],
    s.formatMix,
  );
  const formats = [...new Set(s.formatMix.map((f) => f.format))];
  return section(`${task.title}: ${s.channels.join(' and ')}`, {
    answer: [
      `**A month of ${s.posts.length} posts for ${list(s.channels)}**, three a week on each, with an idea, a copy draft and a format for every post. Best posting days: ${s.bestDays.map((b) => `${b.channel} ${b.day} (${b.basis})`).join('; ')}.`,
    ],
    content: [
      ...laidOut(['### Posts', '', posts.markdown(), '', '### Format mix', '', mix.markdown()]),
      barChart(
        'Format mix',
        formats,
        s.channels.map((ch) => ({
          label: ch,
          data: formats.map(
            (fm) => s.formatMix.find((f) => f.channel === ch && f.format === fm)?.posts ?? 0,
          ),
        })),
      ),
      file('social-media-plan.csv', s.csv),
    ],
  });
}

export const socialPlan = defineCapability({
  task,
  tool: { ...tool, output: Output },
  plan: (ctx) => [{ tool: tool.name, input: { description: ctx.request.slice(0, 4000) } }],
  render,
});

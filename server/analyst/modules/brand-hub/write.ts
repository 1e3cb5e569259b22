import { grouped } from '../../report/words';
import type { ContentItem, StructuredResponse } from '@contract/structured-response';
import { barChart, doughnutChart, lineChart } from '../../tools/charts';
import { file, markdownTable, text } from '../../tools/reports';
import type { PlanContext } from '../module';
import { list, outputs, partsReport, type Draft } from '../report-parts';
import { readingEaseBand } from './copy-review';
import type { BrandRules } from './guidelines';
import { brandParts, partCalls, type BrandTask } from './plan';
import type { ToolCallRecord } from '../../tools/tool';
import type { BrandSurvey } from './tools/brand-survey';
import type { CampaignResults } from './tools/campaign-results';
import type { MessagingTeardown, PositioningMap } from './tools/competitors';
import type { ContentPerformance } from './tools/content-performance';
import type { CopyDrafts } from './tools/drafts';
import type { CopyReviewResult } from './tools/copy-review';
import type { GuidelinesCheck } from './tools/guidelines-check';
import type { LaunchMessaging } from './tools/launch-messaging';
import type { ShareOfVoice } from './tools/share-of-voice';
import type { SocialPlan } from './tools/social-plan';
import type { ToneGuide } from './tools/tone-guide';

/** The Brand Hub report: the answer in its first lines, then the evidence and the files. */

const money = (n: number | null) =>
  n === null ? '—' : `£${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}`;
const n0 = (n: number | null) => (n === null ? '—' : grouped(n));
const pc = (n: number | null) => (n === null ? '—' : `${n}%`);

function rulesLine(r: BrandRules): string {
  const voice =
    r.voiceFrom === 'message'
      ? `the voice you asked for (${r.traits.join(', ')})`
      : `voice ${r.traits.join(', ')}`;
  return `Rules applied from **${r.source}**: ${voice}; ${r.maxExclamations === null ? '' : r.maxExclamations === 0 ? 'no exclamation marks; ' : `at most ${r.maxExclamations} exclamation ${r.maxExclamations === 1 ? 'mark' : 'marks'}; `}sentences of ${r.maxSentenceWords} words or fewer; ${r.banned.length} banned words (${r.banned.slice(0, 6).join(', ')}${r.banned.length > 6 ? ' …' : ''}), matched in every form; ${r.preferred.length} preferred wordings.${r.defaulted.length ? ` Not stated there, so the defaults apply: ${r.defaulted.join('; ')}.` : ''}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cite = (p: { citation: string; link: string }) =>
  `[${p.citation.replace(/[[\]]/g, '')}](${p.link})`;

/**
 * Where the guidelines came from when the company library answered (ADR 0069): the document and
 * version applied, each banned word found with the passage that bans it, or that the attached
 * guidelines won over the library.
 */
function libraryLine(res: CopyReviewResult): string | null {
  const lib = res.library;
  if (!lib) return null;
  if (!lib.applied)
    return `The guidelines attached in this chat (${res.rules.source}) were applied: an attachment wins over the company library, so **${lib.source}** in the library was not used.`;
  const banned = [
    ...new Set(res.reviews.flatMap((r) => r.bannedHits.map((h) => h.term.toLowerCase()))),
  ];
  const bans = banned.flatMap((term) => {
    const p = lib.passages.find((x) =>
      new RegExp(`(^|[^\\p{L}])${escapeRe(term)}($|[^\\p{L}])`, 'iu').test(x.text),
    );
    return p ? [`"${term}" (${cite(p)})`] : [];
  });
  return [
    `No guidelines are attached in this chat, so the company library's **${lib.source}** was applied (${lib.passages.map(cite).join('; ')}).`,
    bans.length ? `Banned by the library: ${bans.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function reviewDraft(res: CopyReviewResult, task: BrandTask): Draft {
  const content: ContentItem[] = [];
  const nextSteps: string[] = [];
  const first = res.reviews[0]!;
  const lead = res.reviews.map((r) => {
    const issues: string[] = [];
    if (r.bannedHits.length)
      issues.push(
        `${r.bannedHits.reduce((s, h) => s + h.count, 0)} banned words (${r.bannedHits
          .flatMap((h) => h.forms)
          .map((f) => `"${f}"`)
          .join(', ')})`,
      );
    if (r.preferredHits.length)
      issues.push(
        `${r.preferredHits.reduce((s, h) => s + h.count, 0)} words the guidelines replace (${r.preferredHits.map((h) => `"${h.forms[0]}" → "${h.preferred}"`).join(', ')})`,
      );
    if (r.passives?.length)
      issues.push(`${r.passives.length} passive sentence${r.passives.length === 1 ? '' : 's'}`);
    if (r.longSentences)
      issues.push(
        `${r.longSentences} sentence${r.longSentences === 1 ? '' : 's'} over ${res.rules.maxSentenceWords} words`,
      );
    const lang = r.englishChecks
      ? ''
      : ` It reads as ${r.language}: the readability score, passive voice and English word lists do not apply to ${r.language} and are not given; sentence length, exclamation marks and capitals are checked.`;
    return `**${r.source} scores ${r.scores.overall}/100 against the brand voice.** ${issues.length ? `To fix: ${list(issues)}.` : 'It follows the rules.'}${lang}`;
  });
  const fromLibrary = libraryLine(res);
  content.push(
    text(
      `${lead.join('\n\n')}\n\n${rulesLine(res.rules)}${fromLibrary ? `\n\n${fromLibrary}` : ''}`,
    ),
  );
  for (const r of res.reviews) {
    content.push(
      text(
        [
          `### Scored summary: ${r.source}`,
          '',
          markdownTable(
            ['Measure', 'Result', 'Target'],
            [
              ['Language', r.language, 'English for every check'],
              [
                'Reading level (Flesch reading ease)',
                r.readingEase === null
                  ? `not given (${r.language})`
                  : `${r.readingEase} (${readingEaseBand(r.readingEase)})`,
                `${res.rules.targetReadingEase} or more`,
              ],
              [
                'Average sentence length',
                `${r.avgSentenceWords} words`,
                `${res.rules.maxSentenceWords} or fewer`,
              ],
              ['Long sentences', `${r.longSentences} of ${r.sentenceCount}`, 'none'],
              [
                'Active voice',
                r.passives === null
                  ? `not given (${r.language})`
                  : `${r.passives.length} passive of ${r.sentenceCount}${r.passives.length ? `: ${r.passives.map((p) => `"${p}"`).join(', ')}` : ''}`,
                'no passive',
              ],
              [
                'Banned words',
                r.englishChecks
                  ? r.bannedHits.map((h) => `${h.term} (${h.forms.join(', ')})`).join('; ') ||
                    'none'
                  : 'not checked (English list)',
                'none',
              ],
              [
                'Preferred wording',
                r.englishChecks
                  ? r.preferredHits
                      .map((h) => `${h.forms.join(', ')} → ${h.preferred}`)
                      .join('; ') || 'followed'
                  : 'not checked (English list)',
                'followed',
              ],
              [
                'Jargon',
                r.englishChecks
                  ? r.jargonHits.map((h) => h.term).join(', ') || 'none'
                  : 'not checked (English list)',
                'none',
              ],
              [
                'Tone marks',
                `${r.exclamations} exclamation mark(s)${r.shouting.length ? `; capitals: ${r.shouting.join(', ')}` : ''}`,
                'at most one; no capitals for emphasis',
              ],
              ['Overall', `${r.scores.overall}/100`, '80 or more'],
            ],
          ),
        ].join('\n'),
      ),
    );
    const labels = ['Readability', 'Sentence length', 'Active voice', 'Word choice'];
    const vals = [
      r.scores.readability,
      r.scores.sentenceLength,
      r.scores.activeVoice,
      r.scores.wordChoice,
    ];
    content.push(
      barChart(
        `Brand voice scores: ${r.source}`,
        labels.filter((_, i) => vals[i] !== null),
        [{ label: 'Score (0-100)', data: vals.filter((v): v is number => v !== null) }],
        { max: 100 },
      ),
    );
    const flagged = r.lines.filter((l) => l.findings.length);
    content.push(
      text(
        flagged.length
          ? `### Line-by-line suggestions\n\n${markdownTable(
              ['Line', 'Text', 'Findings', 'Suggested edit'],
              flagged.map((l) => [
                l.line,
                l.text.length > 120 ? `${l.text.slice(0, 119)}…` : l.text,
                l.findings.join('; '),
                l.suggestion ?? 'Rewrite as noted',
              ]),
            )}`
          : '### Line-by-line suggestions\n\nNo line breaks the rules.',
      ),
    );
    if (r.englishChecks)
      content.push(
        text(
          `### Rewritten version\n\nThe preferred wording applied and banned words replaced (or marked where the guidelines give no replacement); passive sentences are flagged above for you to recast.\n\n${r.rewritten
            .trim()
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n')}`,
        ),
      );
    content.push(
      file(
        `${
          r.source
            .replace(/\.[a-z0-9]+$/i, '')
            .replace(/[^a-z0-9]+/gi, '-')
            .toLowerCase() || 'copy'
        }-review.md`,
        `# Copy review: ${r.source}\n\n${rulesLine(res.rules)}\n\nOverall ${r.scores.overall}/100.\n\n## Findings\n\n${markdownTable(
          ['Line', 'Findings', 'Suggested edit'],
          flagged.map((l) => [l.line, l.findings.join('; '), l.suggestion ?? '—']),
        )}\n\n## Rewritten version\n\n${r.rewritten.trim()}\n`,
      ),
    );
  }
  nextSteps.push('Write a tone of voice guide from our best copy');
  return {
    title:
      task === 'tone-audit'
        ? `Tone audit: ${first.source}`
        : `Brand voice review: ${res.reviews.map((r) => r.source).join(', ')}`,
    content,
    nextSteps,
  };
}

function toneGuideDraft(g: ToneGuide): Draft {
  return {
    title: 'Tone of voice guide',
    content: [
      text(
        `**Our voice in three words: ${g.threeWords.map((t) => t.word).join(', ')}.** Measured from ${g.samples.length} samples: ${g.threeWords.map((t) => `${t.word.toLowerCase()} because ${t.because}`).join('; ')}.`,
      ),
      text(
        [
          "### Do and don't",
          '',
          markdownTable(
            ['Do (from your samples)', "Don't"],
            Array.from({ length: Math.max(g.dos.length, g.donts.length) }, (_, i) => [
              g.dos[i] ? `"${g.dos[i]}"` : '',
              g.donts[i] ? `"${g.donts[i]!.example}" (${g.donts[i]!.why})` : '',
            ]),
          ),
          '',
          `**Preferred words** (used most in your samples): ${g.preferredWords.join(', ') || 'none repeat'}.`,
          '',
          `**Banned words**: ${g.bannedWords.join(', ')}.`,
        ].join('\n'),
      ),
      file('tone-of-voice-guide.md', g.guide),
    ],
    nextSteps: ['Review this copy against the new tone of voice guide'],
  };
}

function launchDraft(m: LaunchMessaging): Draft {
  return {
    title: `Launch messaging: ${m.product}`,
    content: [
      text(
        `**Positioning statement:** ${m.positioning}\n\n**Headline:** ${m.headline}\n\n**Three proof points:**\n${m.proofPoints.map((p, i) => `${i + 1}. ${p}`).join('\n')}${m.missing.length ? `\n\nThe fact sheet does not say ${list(m.missing)}: those parts are placeholders.` : ''}`,
      ),
      text(
        [
          '### Short copy',
          '',
          `**Email**\n\nSubject: ${m.email.subject}\n\n${m.email.body}`,
          '',
          `**Social**\n\n${m.social}`,
          '',
          `**Website**\n\nHeadline: ${m.website.headline}\n\nSubhead: ${m.website.subhead}\n\nButton: ${m.website.cta}`,
          '',
          `Every line comes from ${m.fileName}; nothing is added that the sheet does not state.`,
        ].join('\n'),
      ),
      file(
        'launch-messaging.md',
        `# Launch messaging: ${m.product}\n\n## Positioning statement\n\n${m.positioning}\n\n## Headline\n\n${m.headline}\n\n## Proof points\n\n${m.proofPoints.map((p) => `- ${p}`).join('\n')}\n\n## Email\n\nSubject: ${m.email.subject}\n\n${m.email.body}\n\n## Social\n\n${m.social}\n\n## Website\n\n${m.website.headline}\n\n${m.website.subhead}\n\n[${m.website.cta}]\n`,
      ),
    ],
    nextSteps: [
      'Review the launch copy against our brand voice',
      'Write a campaign brief for the launch',
    ],
  };
}

function resultsDraft(r: CampaignResults): Draft {
  const best = [...r.channels]
    .filter((c) => c.costPerConversion !== null)
    .sort((a, b) => a.costPerConversion! - b.costPerConversion!)[0];
  const behind = r.channels.filter((c) => c.againstTarget !== null && c.againstTarget < 100);
  return {
    title: 'Campaign results review',
    content: [
      text(
        `**The campaign spent ${money(r.total.spend)} for ${n0(r.total.conversions)} conversions (${pc(r.total.againstTarget)} of target), ${money(r.total.costPerConversion)} each.** ${best ? `${best.channel} converted cheapest (${money(best.costPerConversion)} a conversion).` : ''} ${behind.length ? `Behind target: ${list(behind.map((c) => `${c.channel} (${c.againstTarget}%)`))}.` : 'Every channel met its target.'}`,
      ),
      text(
        [
          '### By channel against target',
          '',
          markdownTable(
            [
              'Channel',
              'Spend',
              'Impressions',
              'Clicks',
              'Click-through',
              'Conversions',
              'Conversion rate',
              'Cost per conversion',
              'Target',
              'Against target',
            ],
            [...r.channels, { ...r.total, channel: '**Total**', missingConversions: 0 }].map(
              (c) => [
                c.channel,
                money(c.spend),
                n0(c.impressions),
                n0(c.clicks),
                pc(c.ctr),
                n0(c.conversions),
                pc(c.conversionRate),
                money(c.costPerConversion),
                n0(c.target),
                pc(c.againstTarget),
              ],
            ),
          ),
          '',
          'Click-through = clicks ÷ impressions; conversion rate = conversions ÷ clicks; cost per conversion = spend ÷ conversions. Missing conversions (N/A, blank) are left out, not counted as zero.',
          '',
          '### What to change next time',
          '',
          r.changes.map((c) => `- ${c}`).join('\n') || '- Keep the mix: no channel stands out.',
        ].join('\n'),
      ),
      barChart(
        'Conversions against target by channel',
        r.channels.map((c) => c.channel),
        [
          { label: 'Conversions', data: r.channels.map((c) => c.conversions ?? 0) },
          { label: 'Target', data: r.channels.map((c) => c.target ?? 0) },
        ],
      ),
      barChart(
        'Cost per conversion by channel (£)',
        r.channels.map((c) => c.channel),
        [{ label: '£ per conversion', data: r.channels.map((c) => c.costPerConversion ?? 0) }],
      ),
    ],
    nextSteps: [],
  };
}

function contentDraft(c: ContentPerformance, inCalendar = false): Draft {
  const top = c.ranked[0];
  return {
    title: 'Content performance audit',
    content: [
      ...(inCalendar
        ? []
        : [
            text(
              `**Best performer: "${top?.title}" (${top?.engagementRate}% engagement, ${top?.conversions ?? '—'} conversions).** Best topic ${c.byTopic[0]?.group ?? '—'}, best format ${c.byFormat[0]?.group ?? '—'}, best day ${c.byDay[0]?.group ?? '—'}.`,
            ),
          ]),
      text(
        [
          `### ${inCalendar ? "Last quarter's content, ranked" : 'Posts and articles ranked by engagement and conversion'}`,
          '',
          markdownTable(
            ['#', 'Title', 'Topic', 'Format', 'Channel', 'Engagement rate', 'Conversions'],
            c.ranked.map((r, i) => [
              i + 1,
              r.title,
              r.topic ?? '',
              r.format ?? '',
              r.channel ?? '',
              pc(r.engagementRate),
              n0(r.conversions),
            ]),
          ),
          '',
          '### Best topics, formats and days',
          '',
          markdownTable(
            ['Topic', 'Items', 'Engagement rate', 'Conversions'],
            c.byTopic.map((g) => [g.group, g.items, `${g.engagementRate}%`, g.conversions]),
          ),
          '',
          markdownTable(
            ['Format', 'Items', 'Engagement rate', 'Conversions'],
            c.byFormat.map((g) => [g.group, g.items, `${g.engagementRate}%`, g.conversions]),
          ),
          '',
          markdownTable(
            ['Day', 'Items', 'Engagement rate', 'Conversions'],
            c.byDay.map((g) => [g.group, g.items, `${g.engagementRate}%`, g.conversions]),
          ),
          '',
          "Engagement rate = engagements ÷ impressions, over each group's totals.",
          '',
          `**Do more of:** ${c.moreOf.join(' ')}`,
          '',
          `**Do less of:** ${c.lessOf.join(' ') || 'nothing stands out as weak.'}`,
        ].join('\n'),
      ),
      ...(inCalendar
        ? []
        : [
            barChart(
              'Engagement rate by topic (%)',
              c.byTopic.map((g) => g.group),
              [{ label: 'Engagement %', data: c.byTopic.map((g) => g.engagementRate) }],
            ),
          ]),
    ],
    nextSteps: ["Plan next quarter's content calendar around the best topics"],
  };
}

function sovDraft(s: ShareOfVoice): Draft {
  const months = s.byMonth.map((m) => m.key);
  return {
    title: 'Share of voice report',
    content: [
      text(
        `**${s.brand} has ${s.overall}% share of voice** (${s.measure}, against ${list(s.brands.filter((b) => b !== s.brand))}). ${s.moments.length ? s.moments.map((m) => `We ${m.direction} ${Math.abs(m.change)} points in ${m.month}${m.drivers ? ` (${m.drivers})` : ''}.`).join(' ') : 'No month moved our share by 5 points or more.'}`,
      ),
      text(
        [
          '### By channel',
          '',
          markdownTable(
            ['Channel', `${s.brand}`, 'All brands', 'Share of voice'],
            s.byChannel.map((c) => [c.key, n0(c.ours), n0(c.total), `${c.share}%`]),
          ),
          '',
          '### By month',
          '',
          markdownTable(
            ['Month', `${s.brand}`, 'All brands', 'Share of voice'],
            s.byMonth.map((c) => [c.key, n0(c.ours), n0(c.total), `${c.share}%`]),
          ),
          '',
          '### Where we gained or lost ground',
          '',
          s.moments.length
            ? s.moments
                .map(
                  (m) =>
                    `- ${m.month}: ${m.direction} ${Math.abs(m.change)} points${m.drivers ? `; ${m.drivers}` : ''}.`,
                )
                .join('\n')
            : '- No month moved our share by 5 points or more.',
        ].join('\n'),
      ),
      lineChart(
        'Share of voice by month (%)',
        months,
        s.brands.map((b) => ({
          label: b,
          data: months.map(
            (mo) => s.matrix.find((x) => x.brand === b && x.month === mo)?.share ?? 0,
          ),
        })),
        { max: 100 },
      ),
      barChart(
        'Share of voice by channel (%)',
        s.byChannel.map((c) => c.key),
        [{ label: s.brand, data: s.byChannel.map((c) => c.share) }],
        { max: 100 },
      ),
    ],
    nextSteps: [],
  };
}

function surveyDraft(s: BrandSurvey): Draft {
  return {
    title: 'Brand perception survey analysis',
    content: [
      text(
        `**${s.awareness}% of ${s.respondents} respondents know the brand and ${s.consideration}% would consider it** (${s.considerationAmongAware}% of those who know it). ${s.attributes[0] ? `The attribute most associated with it: ${s.attributes[0].attribute} (${s.attributes[0].share}% of respondents).` : ''}`,
      ),
      text(
        [
          '### By segment',
          '',
          markdownTable(
            ['Segment', 'Respondents', 'Awareness', 'Consideration'],
            s.segments.map((g) => [
              g.segment,
              g.respondents,
              `${g.awareness}%`,
              `${g.consideration}%`,
            ]),
          ),
          '',
          '### Attributes associated with the brand',
          '',
          markdownTable(
            ['Attribute', 'Mentions', 'Share of respondents'],
            s.attributes.map((a) => [a.attribute, a.mentions, `${a.share}%`]),
          ),
          '',
          `Awareness and consideration count "yes" answers (or 4-5 on a five-point scale) over all respondents. ${s.unanswered} respondent(s) named no attribute.`,
        ].join('\n'),
      ),
      barChart(
        'Awareness and consideration by segment (%)',
        s.segments.map((g) => g.segment),
        [
          { label: 'Awareness', data: s.segments.map((g) => g.awareness) },
          { label: 'Consideration', data: s.segments.map((g) => g.consideration) },
        ],
        { max: 100 },
      ),
      doughnutChart(
        'Attributes associated with the brand',
        s.attributes.map((a) => a.attribute),
        s.attributes.map((a) => a.mentions),
        'Mentions',
      ),
    ],
    nextSteps: [],
  };
}

function positioningDraft(p: PositioningMap): Draft {
  return {
    title: 'Competitor positioning map',
    content: [
      text(
        `**Open space: ${p.openSpace.length ? list(p.openSpace.map((o) => o.theme.toLowerCase())) : 'none'}**: no competitor in your notes claims ${p.openSpace.length === 1 ? 'it' : 'them'}. ${p.competitors.map((c) => `${c.name} claims ${c.themes.length ? list(c.themes.map((t) => t.toLowerCase())) : 'nothing distinctive'}`).join('; ')}.${p.notFound.length ? ` Not in the notes: ${p.notFound.join(', ')}.` : ''}`,
      ),
      text(
        [
          '### Claims, audience, price point and tone',
          '',
          markdownTable(
            ['Competitor', 'Claims', 'Audience', 'Price point', 'Tone', 'Themes claimed'],
            p.competitors.map((c) => [
              c.name,
              c.claims.map((x) => `"${x}"`).join('; ') || '—',
              c.audience ?? '—',
              c.price ?? '—',
              c.tone ?? '—',
              c.themes.join(', ') || '—',
            ]),
          ),
          '',
          '### Where there is open space for us',
          '',
          p.openSpace.map((o) => `- **${o.theme}**: ${o.why}.`).join('\n') ||
            '- Every theme is claimed: differentiate on proof rather than on the claim.',
        ].join('\n'),
      ),
      file(
        'competitor-positioning.csv',
        `Competitor,Claims,Audience,Price point,Tone,Themes\n${p.competitors.map((c) => [c.name, c.claims.join('; '), c.audience ?? '', c.price ?? '', c.tone ?? '', c.themes.join('; ')].map((v) => `"${v.replace(/"/g, '""')}"`).join(',')).join('\n')}\n`,
      ),
    ],
    nextSteps: [],
  };
}

function teardownDraft(t: MessagingTeardown): Draft {
  const row = (x: MessagingTeardown['theirs']) => [
    x.fileName,
    `"${x.promise}"`,
    x.proof.join('; ') || 'none',
    `${x.tone.avgSentenceWords} words a sentence, reading ease ${x.tone.readingEase}, ${x.tone.youShare}% "you", ${x.tone.passives} passive${x.tone.jargon.length ? `, jargon: ${x.tone.jargon.join(', ')}` : ''}`,
    x.ctas.map((c) => `"${c}"`).join(', ') || 'none',
  ];
  return {
    title: `Competitor messaging teardown: ${t.theirs.fileName}`,
    content: [
      text(
        `**Their promise: "${t.theirs.promise}".** Proof: ${t.theirs.proof.length} line(s); calls to action: ${t.theirs.ctas.map((c) => `"${c}"`).join(', ') || 'none'}.${t.ours ? ` Ours promises "${t.ours.promise}".` : ' Attach our page to compare.'}`,
      ),
      text(
        [
          '### Promise, proof, tone and calls to action',
          '',
          markdownTable(
            ['Page', 'Promise', 'Proof', 'Tone', 'Calls to action'],
            [row(t.theirs), ...(t.ours ? [row(t.ours)] : [])],
          ),
          ...(t.comparison.length
            ? ['', '### How our copy compares', '', ...t.comparison.map((c) => `- ${c}`)]
            : []),
        ].join('\n'),
      ),
    ],
    nextSteps: ['Rewrite our hero copy to answer their promise'],
  };
}

function guidelinesDraft(g: GuidelinesCheck): Draft {
  const failing = g.items.filter((i) => i.fixes.length);
  return {
    title: 'Brand guidelines compliance check',
    content: [
      text(
        `**${g.passed} of ${g.items.length} items follow ${g.guidelines}; ${failing.length} need fixes** (${failing.map((i) => `${i.item}: ${i.fixes.length}`).join('; ')}).`,
      ),
      text(
        [
          '### Item by item',
          '',
          markdownTable(
            ['Item', 'Logo use', 'Colours', 'Typography', 'Tone', 'Legal lines'],
            g.items.map((i) => [
              i.item,
              i.logo.join('; ') || '✅ follows',
              i.colours.join('; ') || '✅ follows',
              i.typography.join('; ') || '✅ follows',
              i.tone.join('; ') || '✅ follows',
              i.legal.join('; ') || '✅ follows',
            ]),
          ),
          '',
          '### Fixes per item',
          '',
          ...g.items.map(
            (i) =>
              `**${i.item}**\n${i.fixes.length ? i.fixes.map((f) => `- ${f}`).join('\n') : '- None.'}\n`,
          ),
          `Rules read from ${g.guidelines}: palette ${g.rules.palette.join(', ') || 'not stated'}; fonts ${g.rules.fonts.join(', ') || 'not stated'} (never ${g.rules.bannedFonts.join(', ') || '—'}); ${g.rules.legalLines.length} legal line(s); ${g.rules.banned.length} banned words in every form.`,
        ].join('\n'),
      ),
      file(
        'brand-compliance-fixes.md',
        `# Brand guidelines compliance: fixes\n\n${g.items.map((i) => `## ${i.item}\n\n${i.fixes.length ? i.fixes.map((f) => `- [ ] ${f}`).join('\n') : '- Nothing to fix.'}\n`).join('\n')}`,
      ),
    ],
    nextSteps: ['Review the corrected copy against the brand voice'],
  };
}

function needsFile(task: BrandTask): Draft {
  const needs: Partial<Record<BrandTask, [string, string, string]>> = {
    'guidelines-check': [
      "the brand guidelines and the materials' text (PDF, DOCX, HTML or text)",
      'brand-guidelines-checklist.md',
      '# What the check applies\n\n- Logo use\n- Colours (palette hex codes)\n- Typography\n- Tone: banned and preferred words\n- Legal lines\n',
    ],
    'tone-guide': [
      'three to five samples of your best copy (DOCX, markdown or text)',
      'tone-of-voice-template.md',
      "# Our tone of voice\n\n## Our voice in three words\n\n## Do\n\n## Don't\n\n## Words we use\n\n## Words we don't use\n",
    ],
    launch: [
      'the product fact sheet (PDF, DOCX, markdown or text)',
      'launch-messaging-template.md',
      '# Launch messaging\n\n## Positioning statement\n\nFor [audience] who [need], [product] is [category] that [benefit]. Unlike [alternative], it [difference].\n\n## Headline\n\n## Proof points\n\n1.\n2.\n3.\n\n## Email / Social / Website\n',
    ],
    teardown: [
      "the competitor's page and ours (HTML, markdown or text)",
      'teardown-template.md',
      '# Messaging teardown\n\n| | Theirs | Ours |\n| --- | --- | --- |\n| Promise | | |\n| Proof | | |\n| Tone | | |\n| Calls to action | | |\n',
    ],
    positioning: [
      'notes or copy on each competitor (PDF, DOCX, HTML or text), and their names in your message',
      'positioning-template.csv',
      'Competitor,Claims,Audience,Price point,Tone\n',
    ],
    'share-of-voice': [
      'the mentions export (CSV or XLSX with brand, channel, date and reach)',
      'mentions-template.csv',
      'Brand,Channel,Date,Reach\n',
    ],
    survey: [
      'the survey results (CSV or XLSX, one row per respondent)',
      'survey-template.csv',
      'Respondent,Segment,Aware of brand,Would consider,Words that describe the brand\n',
    ],
    'content-audit': [
      'the content analytics export (CSV or XLSX)',
      'content-analytics-template.csv',
      'Title,Topic,Format,Channel,Published,Impressions,Engagements,Clicks,Conversions\n',
    ],
    results: [
      'the campaign results (CSV or XLSX with channel, date, spend, impressions, clicks and conversions)',
      'campaign-results-template.csv',
      'Date,Channel,Spend,Impressions,Clicks,Conversions,Target conversions\n',
    ],
    review: [
      'the copy: paste it after a line such as "Copy:" or attach it (DOCX, markdown, HTML or text), with your brand guidelines if you have them',
      'brand-voice-checklist.md',
      '# What the review checks\n\n- Readability (English)\n- Sentence length\n- Active voice (English)\n- Banned words in every form, preferred wording\n- Jargon\n',
    ],
  };
  const [what, name, template] = needs[task] ?? needs.review!;
  return {
    title: 'Brand Hub: file needed',
    content: [
      text(
        `To do this I need ${what}; nothing of the kind is in this conversation. Attach it and ask again: the template below shows what I read.`,
      ),
      file(name, template),
    ],
    nextSteps: [`Attach ${what.split(' (')[0]}`],
  };
}

export function writeBrand(ctx: PlanContext): StructuredResponse {
  // A request naming several things: a section per part, in the order asked (ADR 0063).
  return partsReport(
    ctx,
    brandParts(ctx.request),
    (p) => partCalls(ctx, p),
    (c, p) => draftsOf(c, p.task),
  );
}

/** The answers the tools gave to one request (or one part of it), in the module's order. */
function draftsOf(calls: ToolCallRecord[], task: BrandTask): Draft[] {
  const drafts: Draft[] = [];
  for (const r of outputs<CopyReviewResult>(calls, 'copy_review'))
    drafts.push(reviewDraft(r, task));
  for (const d of outputs<CopyDrafts>(calls, 'copy_drafts')) {
    const plural = d.drafts.length === 1 ? '' : 's';
    drafts.push({
      title: `Draft ${d.kind}${plural}: ${d.subject}`,
      content: [
        text(
          [
            `**Draft ${d.kind}${plural} for ${d.subject}** (drafts to edit, not final copy), written in ${d.rules.voiceFrom === 'message' ? 'the voice you asked for' : 'the voice'} (${d.rules.traits.join(', ')})${d.guided ? ` and checked against ${d.rules.source}` : ''}:`,
            '',
            ...d.drafts.map(
              (x, i) =>
                `${i + 1}. Draft: ${x.text}${x.findings.length ? ` _(check: ${x.findings.join('; ')})_` : ''}`,
            ),
          ].join('\n'),
        ),
        text(rulesLine(d.rules)),
      ],
      nextSteps: [],
    });
  }
  for (const g of outputs<ToneGuide>(calls, 'tone_of_voice_guide')) drafts.push(toneGuideDraft(g));
  for (const m of outputs<LaunchMessaging>(calls, 'launch_messaging')) drafts.push(launchDraft(m));
  for (const r of outputs<CampaignResults>(calls, 'campaign_results')) drafts.push(resultsDraft(r));
  for (const s of outputs<ShareOfVoice>(calls, 'share_of_voice')) drafts.push(sovDraft(s));
  for (const s of outputs<BrandSurvey>(calls, 'brand_survey')) drafts.push(surveyDraft(s));
  for (const p of outputs<PositioningMap>(calls, 'competitor_positioning'))
    drafts.push(positioningDraft(p));
  for (const t of outputs<MessagingTeardown>(calls, 'messaging_teardown'))
    drafts.push(teardownDraft(t));
  for (const g of outputs<GuidelinesCheck>(calls, 'guidelines_compliance'))
    drafts.push(guidelinesDraft(g));
  for (const b of outputs<{
    subject: string;
    audience: string | null;
    goal: string | null;
    proposition: string | null;
    channels: string[];
    weeks: number;
    budget: { written: string } | null;
    split: Array<{ channel: string; percent: number }>;
    filename: string;
    data: string;
  }>(calls, 'campaign_brief'))
    drafts.push({
      title: `Campaign brief: ${b.subject}`,
      content: [
        text(
          `**Here is the campaign brief for ${b.subject}**, with the objective, audience, single-minded proposition, key messages, channels (${b.channels.join(', ')}), budget split, a ${b.weeks}-week timeline and how we will measure success. ${[!b.goal && 'objective', !b.audience && 'audience', !b.proposition && 'proposition', !b.budget && 'total budget'].filter(Boolean).length ? `Your message does not state the ${list([!b.goal && 'objective', !b.audience && 'audience', !b.proposition && 'proposition', !b.budget && 'total budget'].filter((x): x is string => !!x))}: those parts are [placeholders] to fill in.` : ''}`,
        ),
        text(
          `### Budget split\n\n${markdownTable(
            ['Channel', 'Share'],
            b.split.map((s) => [s.channel, `${s.percent}%`]),
          )}\n\nPaid channels carry most of the budget, owned channels less, with 10% kept back; adjust to your costs.`,
        ),
        doughnutChart(
          'Budget split by channel',
          b.split.map((s) => s.channel),
          b.split.map((s) => s.percent),
          '% of budget',
        ),
        file(b.filename, b.data),
      ],
      nextSteps: ['Plan a content calendar for the campaign channels'],
    });
  for (const c of outputs<{
    subject: string;
    channels: string[];
    weeks: number;
    rows: Array<{
      week: number;
      weekOf: string;
      keyDate: string | null;
      channel: string;
      theme: string;
      format: string;
      day: string;
    }>;
    filename: string;
    data: string;
  }>(calls, 'content_calendar')) {
    const weeks = [...new Set(c.rows.map((r) => r.week))];
    const perChannel = c.channels.map((ch) => c.rows.filter((r) => r.channel === ch).length);
    drafts.push({
      title: `Content calendar: ${c.weeks} weeks`,
      content: [
        text(
          `**A ${c.weeks}-week content calendar with a theme each week across ${list(c.channels)}, ${c.rows.length} posts in all**; weeks with a key date are themed around it (${
            c.rows
              .filter((r) => r.keyDate)
              .map((r) => r.keyDate)
              .filter((v, i, a) => a.indexOf(v) === i)
              .join(', ') || 'none fall in this quarter'
          }). The shareable table is the CSV file.`,
        ),
        text(
          `### Weekly themes\n\n${markdownTable(
            ['Week', 'Week of', 'Theme', 'Key date', 'Formats'],
            weeks.map((w) => {
              const rs = c.rows.filter((r) => r.week === w);
              return [
                w,
                rs[0]!.weekOf,
                rs[0]!.theme,
                rs[0]!.keyDate ?? '',
                [...new Set(rs.map((r) => `${r.channel}: ${r.format}`))].join('; '),
              ];
            }),
          )}\n\nTie each week to your campaigns by replacing the theme where a campaign runs.`,
        ),
        doughnutChart('Posts per channel', c.channels, perChannel, 'Posts'),
        file(c.filename, c.data),
      ],
      nextSteps: [],
    });
  }
  const perf = outputs<ContentPerformance>(calls, 'content_performance');
  if (perf[0]) {
    if (drafts.some((d) => d.title.startsWith('Content calendar')))
      drafts[drafts.length - 1]!.content.push(...contentDraft(perf[0], true).content);
    else drafts.push(contentDraft(perf[0]));
  }
  for (const s of outputs<SocialPlan>(calls, 'social_plan'))
    drafts.push({
      title: `Social media content plan: ${s.channels.join(' and ')}`,
      content: [
        text(
          `**A month of ${s.posts.length} posts for ${list(s.channels)}**, three a week on each, with an idea, a copy draft and a format for every post. Best posting days: ${s.bestDays.map((b) => `${b.channel} ${b.day} (${b.basis})`).join('; ')}.`,
        ),
        text(
          `### Posts\n\n${markdownTable(
            ['Week', 'Channel', 'Day', 'Format', 'Idea', 'Copy draft'],
            s.posts.map((p) => [p.week, p.channel, p.day, p.format, p.idea, p.draft]),
          )}\n\n### Format mix\n\n${markdownTable(
            ['Channel', 'Format', 'Posts'],
            s.formatMix.map((f) => [f.channel, f.format, f.posts]),
          )}`,
        ),
        barChart(
          'Format mix',
          [...new Set(s.formatMix.map((f) => f.format))],
          s.channels.map((ch) => ({
            label: ch,
            data: [...new Set(s.formatMix.map((f) => f.format))].map(
              (fm) => s.formatMix.find((f) => f.channel === ch && f.format === fm)?.posts ?? 0,
            ),
          })),
        ),
        file('social-media-plan.csv', s.csv),
      ],
      nextSteps: [],
    });
  if (!drafts.length) drafts.push(needsFile(task));
  return drafts;
}

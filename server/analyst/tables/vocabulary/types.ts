import type { ColumnRole } from '@contract/reading';

/**
 * One language's words for reading HR exports: the headers that name each column role and the
 * words that stand for values (gender, leaving reasons, status, pay frequency, yes/no, ratings,
 * "not assessed"). Data only: the table engine builds its synonym tables and value lists from
 * these files (see index.ts), so a language is added by adding a file. Spelling as the systems
 * write it; matching ignores case, accents and punctuation.
 */
export interface Vocabulary {
  /** ISO 639-1 code. */
  lang: string;
  /** Headers per role, the plainest first. Every role has at least one entry. */
  headers: Record<ColumnRole, string[]>;
  /**
   * Headers that can hold a role but are a second choice when a plainer column holds it too (a
   * "Supervisory Organization" beside a "Department"): used only when no plain header is there.
   */
  fallbackHeaders: Partial<Record<ColumnRole, string[]>>;
  values: ValueVocabulary;
}

export interface ValueVocabulary {
  gender: {
    women: string[];
    men: string[];
    /** The one-letter codes this language's exports use, e.g. H/F in French, M/W in German. */
    letters: { women: string; men: string };
  };
  /** Words of a leaving reason, matched within the reason's text. */
  leaving: {
    voluntary: string[];
    involuntary: string[];
    /** Ended by agreement: counted as involuntary (the employer's initiative in most systems). */
    mutual: string[];
    /** Neither (death, transfer within the group): not counted as voluntary or involuntary. */
    other: string[];
  };
  /** Employment status words (whole words within the status). */
  status: { active: string[]; left: string[] };
  payFrequency: { hourly: string[]; weekly: string[]; monthly: string[]; annual: string[] };
  yesNo: { yes: string[]; no: string[]; partTime: string[]; fullTime: string[] };
  /** Rating words, lowest step first (5 steps: poor, below, meets, exceeds, outstanding). */
  ratings: [string[], string[], string[], string[], string[]];
  /** Wordings that mean a person was not rated: missing, never a rating. */
  notAssessed: string[];
}

/**
 * A regulation's key obligations as data (ADR 0061): what a policy must say to meet each one, and
 * the article it comes from, so that every gap cites the law. Kept at the level of the article
 * text; a compliance officer reads the article before acting on a gap.
 */
export interface RegulationObligation {
  /** The provision, as cited: "Art. 9(1)(b)", "s.7", "Principle 3". */
  ref: string;
  /** A short name for the obligation. */
  label: string;
  /** What the provision requires, in plain words. */
  requirement: string;
  /** Policy headings that name it (lower case, whole words). */
  names: string[];
  /** What a policy section that meets it says. */
  cues: RegExp[];
  /** Distinct cues a section needs to count as meeting it (default 1). */
  minCues?: number;
}

export interface Regulation {
  id: string;
  /** The name people use: "EU Whistleblowing Directive". */
  name: string;
  /** The official citation: "Directive (EU) 2019/1937". */
  citation: string;
  /** How a request names it. */
  aliases: RegExp;
  /** Who it applies to and from when, in one line. */
  scope: string;
  obligations: RegulationObligation[];
}

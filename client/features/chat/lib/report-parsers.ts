import type * as Parsers from '@contract/report-text';

// The contract's reader of a report written as text (zod schemas, jsonrepair) is needed only for
// what the server did not read: a stream's chunks (spec section 4, stream_chunk) and old history
// messages without a report. A finished reply's report comes read and validated in its
// stream_complete (docs/decisions/0018-the-report-typed-end-to-end.md). So the reader loads then,
// not with the chat page (ADR 0011, bundle budget). The socket holds stream events back until it
// is here (use-chat-socket.ts), so no event is applied without it.

export type ReportParsers = Pick<typeof Parsers, 'readReport' | 'wholeReport'>;

let loaded: ReportParsers | null = null;
let loading: Promise<ReportParsers> | null = null;

export function loadReportParsers(): Promise<ReportParsers> {
  loading ??= import('@contract/report-text').then(
    (m) => (loaded = m),
    (err: unknown) => {
      loading = null; // a failed load (network) is tried again by the next caller
      throw err;
    },
  );
  return loading;
}

/** The parsers once loaded, else null. */
export function reportParsers(): ReportParsers | null {
  return loaded;
}

import type * as Parsers from './structured-response';

// Reading a report out of a reply's text (the contract's zod schemas, jsonrepair) is needed only
// once a reply streams: a chat's history comes with its reports read by the server. So the
// parsers load then, not with the chat page (ADR 0011, bundle budget). The socket holds stream
// events back until they are here (use-chat-socket.ts), so no event is applied without them.

export type ReportParsers = Pick<typeof Parsers, 'parseStructuredResponse' | 'repairReportInText'>;

let loaded: ReportParsers | null = null;
let loading: Promise<ReportParsers> | null = null;

export function loadReportParsers(): Promise<ReportParsers> {
  loading ??= import('./structured-response').then(
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

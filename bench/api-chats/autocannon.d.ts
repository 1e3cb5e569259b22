// What this benchmark uses of autocannon beyond bench/chat-history/autocannon.d.ts (merged with it).
declare module 'autocannon' {
  interface Options {
    /** Requests per second over all connections together. */
    overallRate?: number;
  }
}

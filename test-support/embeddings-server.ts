import { createServer, type Server } from 'node:http';
import { closeNow, listenLocal } from './local-server';

/**
 * A local OpenAI-compatible `/embeddings` server for library tests (ADR 0026). Its vectors are
 * deterministic: each word counts once in the dimension its concept hashes to, and the words of
 * SYNONYMS share their concept's, so "vacation" lands where "leave" does while full text, which
 * knows no synonyms, does not find it. It can fail (HTTP 500) or hold its answers back, and counts
 * the texts it was asked for.
 */

export const EMBEDDING_DIMENSIONS = 256;

/** Words that mean the same to this "model": each maps to its concept. */
export const SYNONYMS: Record<string, string> = {
  vacation: 'leave',
  vacations: 'leave',
  holiday: 'leave',
  holidays: 'leave',
  urlaub: 'leave',
  telework: 'home',
  teleworking: 'home',
  homeoffice: 'home',
  reimbursed: 'refund',
  reimburse: 'refund',
  repaid: 'refund',
};

function dimensionOf(concept: string): number {
  // FNV-1a: the same word always in the same dimension.
  let h = 0x811c9dc5;
  for (const ch of concept) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h % EMBEDDING_DIMENSIONS;
}

/** The vector the server answers for a text (not unit length: the app normalises). */
export function fakeEmbedding(text: string): number[] {
  const v: number[] = Array.from({ length: EMBEDDING_DIMENSIONS }, () => 0);
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (word.length < 3) continue;
    v[dimensionOf(SYNONYMS[word] ?? word)]! += 1;
  }
  // A text of no words still gets a vector (the endpoint never answers zeros).
  if (!v.some((x) => x > 0)) v[0] = 1;
  return v;
}

export interface EmbeddingsServer {
  /** Base URL to use as EMBEDDINGS_URL (ends in /v1). */
  baseUrl: string;
  /** Answer 500 while true. */
  failing: boolean;
  /** When set, answers wait until it settles. */
  holdUntil: Promise<unknown> | null;
  /** Every text asked for, in order. */
  inputs: string[];
  /** Model names asked for. */
  models: string[];
  close(): Promise<void>;
}

export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  const state: Omit<EmbeddingsServer, 'baseUrl' | 'close'> = {
    failing: false,
    holdUntil: null,
    inputs: [],
    models: [],
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (state.holdUntil) await state.holdUntil;
        if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        if (state.failing) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'embedding model unavailable' } }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          model: string;
          input: string | string[];
        };
        const input = Array.isArray(body.input) ? body.input : [body.input];
        state.inputs.push(...input);
        state.models.push(body.model);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            data: input.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: fakeEmbedding(text),
            })),
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          }),
        );
      })();
    });
  });
  const port = await listenLocal(server);
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => closeNow(server),
  });
}

import { createHash } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { loadTables } from '../tables/load';
import { mergeReadings, type AppliedReading } from '../tables/reading';
import { nativeGate, resumeNative, stopNative } from '../tables/native-gate';
import { tableKindOf } from '../tables/read-sources';
import type { TableSet } from '../tables/types';
import type { HistoryAttachment } from '../types';
import { extractDocument, type DocumentResult } from './documents';
import { toolNamed } from './registry';
import { isOutOfMemory, ToolError, WORKER_MEMORY_MESSAGE, type ToolContext } from './tool';

/**
 * The analysis worker (a piscina thread): builds the ToolContext over the turn's files and runs
 * one tool. Loaded table sets stay cached by the files' hash, so a turn's second tool call, and
 * the follow-up's, skip the parsing; the cache is bounded and closes the DuckDB databases it
 * drops.
 */

export interface ToolTask {
  tool: string;
  input: unknown;
  files: Array<{ fileName: string; mimeType: string; data: Uint8Array }>;
  /**
   * The call's line to the main thread (runner.ts): told when this worker starts the call (its
   * time limit runs from then), with the worker's count of DuckDB calls in flight; tells the
   * worker to stop the call.
   */
  port?: MessagePort;
  /** The company's confirmed readings and the turn's proposed ones (ADR 0050). */
  readings?: AppliedReading[];
  /** DuckDB's memory per table set, in MB, when not TABLE_MEMORY_MB (tests). */
  memoryLimitMb?: number;
}

/** What the worker tells the main thread when it starts a call. */
export interface StartedMessage {
  gate: Int32Array;
}

const tableSets = new LRUCache<string, Promise<TableSet>>({
  max: 4,
  // Roughly what DuckDB holds per byte of source file; keeps a worker's memory bounded.
  maxSize: 400 * 1024 * 1024,
  sizeCalculation: (_v, key) => Math.max(1, Number(key.split(':')[0]) * 4),
  dispose: (value) => {
    value.then((s) => s.close()).catch(() => undefined);
  },
});

const documents = new LRUCache<string, Promise<DocumentResult>>({
  max: 16,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (_v, key) => Math.max(1, Number(key.split(':')[0])),
});

function hashOf(files: HistoryAttachment[]): string {
  const h = createHash('sha256');
  let bytes = 0;
  for (const f of files) {
    h.update(f.fileName).update('\0').update(f.data);
    bytes += f.data.length;
  }
  return `${bytes}:${h.digest('hex')}`;
}

function contextOf(
  files: HistoryAttachment[],
  readings: AppliedReading[] = [],
  memoryLimitMb?: number,
): ToolContext {
  const tableFiles = files.filter((f) => tableKindOf(f) !== null);
  return {
    fileNames: files.map((f) => f.fileName),
    tables(proposed) {
      const applied = mergeReadings(readings, proposed);
      const key = [
        hashOf(tableFiles),
        ...(applied.length
          ? [createHash('sha256').update(JSON.stringify(applied)).digest('hex')]
          : []),
        ...(memoryLimitMb === undefined ? [] : [`m${memoryLimitMb}`]),
      ].join(':');
      let set = tableSets.get(key);
      if (!set) {
        set = loadTables(tableFiles, {
          ...(applied.length ? { readings: applied } : {}),
          ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
        });
        tableSets.set(key, set);
        set.catch(() => tableSets.delete(key));
      }
      return set;
    },
    document(fileName) {
      const candidates = files.filter((f) => tableKindOf(f) === null);
      const att = fileName
        ? files.find((f) => f.fileName.toLowerCase() === fileName.trim().toLowerCase())
        : candidates.length === 1
          ? candidates[0]
          : undefined;
      if (!att)
        throw new ToolError(
          fileName
            ? `No attached file is named "${fileName}". Attached: ${files.map((f) => f.fileName).join(', ') || 'none'}.`
            : candidates.length
              ? `Several documents are attached; name one of: ${candidates.map((f) => f.fileName).join(', ')}.`
              : 'No document is attached.',
        );
      const key = hashOf([att]);
      let doc = documents.get(key);
      if (!doc) documents.set(key, (doc = extractDocument(att)));
      return doc;
    },
    async bytes(fileName) {
      const att = files.find((f) => f.fileName === fileName);
      if (!att) throw new ToolError(`No attached file is named "${fileName}".`);
      return att.data;
    },
  };
}

/** Runs one tool: its JSON result, or `{ error }` for a bad input or a ToolError. */
export default async function runTask(task: ToolTask): Promise<unknown> {
  resumeNative();
  // Stopped: its DuckDB queries are interrupted and no other starts, so the call ends soon.
  task.port?.on('message', (m) => {
    if (m === 'stop') stopNative();
  });
  task.port?.postMessage({ gate: nativeGate } satisfies StartedMessage);
  try {
    return await runTool(task);
  } finally {
    task.port?.close();
  }
}

async function runTool(task: ToolTask): Promise<unknown> {
  const tool = toolNamed(task.tool);
  if (!tool) return { error: `There is no tool named ${task.tool}.` };
  const input = tool.input.safeParse(task.input ?? {});
  if (!input.success)
    return {
      error: `Invalid input for ${task.tool}: ${input.error.issues
        .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
        .join('; ')}`,
    };
  const files = task.files.map((f) => ({
    fileName: f.fileName,
    mimeType: f.mimeType,
    data: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength),
  }));
  try {
    // JSON in and out: what a model sees is exactly what the builtin sees.
    return JSON.parse(
      JSON.stringify(
        (await tool.run(contextOf(files, task.readings, task.memoryLimitMb), input.data)) ?? null,
      ),
    );
  } catch (err) {
    if (err instanceof ToolError)
      return { error: err.message, ...(err.needs?.length ? { needs: err.needs } : {}) };
    // DuckDB refused the files' tables its memory budget: they are too large to analyse whole.
    if (isOutOfMemory(err)) return { error: WORKER_MEMORY_MESSAGE };
    throw err;
  }
}

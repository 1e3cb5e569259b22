import type { StructuredResponse } from '@contract/structured-response';
import type { Config } from '../server/config';
import type { Agent, AgentEvent, TurnInput } from '../server/analyst/types';
import { AgentError } from '../server/analyst/types';
import type { AgentFor } from '../server/analyst/registry';

/**
 * Agents for tests, entering through the app's one seam for providers: a test hands
 * `scriptedAgentFor` to createTestApp (`agentFor`), and each model string picks a script.
 *
 *   scripted:quick   thinking, two chunks, a final report (also answers `builtin`)
 *   scripted:slow    thinking, "Partial answer", then waits for `release()` (or the signal)
 *   scripted:stuck   waits for ever, ignoring its signal (timeouts must still end the turn)
 *   scripted:fail    throws an AgentError after one chunk
 */

export interface RunControl {
  input: TurnInput;
  /** Resolves once the script reached its pause. */
  paused: Promise<void>;
  release: () => void;
}

export const runs: RunControl[] = [];

export const quickReport: StructuredResponse = {
  task_name: 'Quick report',
  content: [{ type: 'text', text: 'All done.' }],
  next_steps: [{ step_description: 'Ask for more' }],
};
export const slowReport: StructuredResponse = {
  task_name: 'Slow report',
  content: [{ type: 'text', text: 'Partial answer, finished.' }],
  next_steps: [],
};

function control(input: TurnInput): RunControl & { resume: Promise<void>; markPaused: () => void } {
  let release!: () => void;
  let markPaused!: () => void;
  const resume = new Promise<void>((r) => (release = r));
  const paused = new Promise<void>((r) => (markPaused = r));
  const c = { input, paused, release, resume, markPaused };
  runs.push(c);
  return c;
}

const untilAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

async function* quick(input: TurnInput): AsyncIterable<AgentEvent> {
  control(input).markPaused();
  yield { type: 'thinking', text: 'Reading the request' };
  yield { type: 'thinking', text: 'Calling tool profile_table' };
  const text = JSON.stringify(quickReport);
  yield { type: 'text', delta: text.slice(0, 10) };
  yield { type: 'text', delta: text.slice(10) };
  yield { type: 'final', text, report: quickReport };
}

async function* slow(input: TurnInput): AsyncIterable<AgentEvent> {
  const c = control(input);
  yield { type: 'thinking', text: 'Reading the request' };
  yield { type: 'text', delta: 'Partial ' };
  yield { type: 'text', delta: 'answer' };
  c.markPaused();
  await Promise.race([c.resume, untilAborted(input.signal)]);
  if (input.signal.aborted) return;
  yield { type: 'text', delta: ', finished.' };
  yield { type: 'final', text: 'Partial answer, finished.', report: slowReport };
}

async function* stuck(input: TurnInput): AsyncIterable<AgentEvent> {
  const c = control(input);
  yield { type: 'text', delta: 'Starting' };
  c.markPaused();
  await c.resume;
}

async function* fail(input: TurnInput): AsyncIterable<AgentEvent> {
  control(input).markPaused();
  yield { type: 'text', delta: 'Half' };
  throw new AgentError('The model service refused the request (quota exceeded). Try again later.');
}

const scripts: Record<string, (input: TurnInput) => AsyncIterable<AgentEvent>> = {
  builtin: quick,
  'scripted:quick': quick,
  'scripted:slow': slow,
  'scripted:stuck': stuck,
  'scripted:fail': fail,
};

export const scriptedAgentFor: AgentFor = (model: string, _config: Config): Agent => {
  const script = scripts[model];
  if (!script) throw new Error(`no scripted agent for model ${model}`);
  return { run: script };
};

/** The latest run whose chat is chatId. */
export function lastRun(chatId: string): RunControl | undefined {
  return runs.filter((r) => r.input.chatId === chatId).at(-1);
}

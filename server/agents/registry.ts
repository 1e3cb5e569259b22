import type { Config } from '../config';
import type { Agent, AgentEvent, TurnInput } from './types';

/**
 * The agent for a model string (`builtin`, `openai:<model>`). Placeholder until the agents
 * issue lands: every model answers with one fixed report through the same event stream.
 */
export function agentFor(model: string, _config: Config): Agent {
  return {
    async *run(input: TurnInput): AsyncIterable<AgentEvent> {
      yield { type: 'thinking', text: `Reading your request with ${model}` };
      const report = {
        task_name: 'Placeholder report',
        content: [{ type: 'text' as const, text: `Received ${input.history.length} message(s).` }],
        next_steps: [{ step_description: 'Tell me more about what you need' }],
      };
      const text = JSON.stringify(report);
      yield { type: 'text', delta: text };
      yield { type: 'final', text, report };
    },
  };
}

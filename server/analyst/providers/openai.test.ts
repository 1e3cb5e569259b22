import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StructuredResponse } from '@contract/structured-response';
import {
  startOpenAiFixture,
  textReply,
  toolCallReply,
  type OpenAiFixture,
} from '../../../test-support/openai-fixture';
import { attachment, fixture, runTurn, userMessage } from '../../../test-support/analyst/turns';
import { AgentError } from '../types';
import { openaiAgent } from './openai';

let server: OpenAiFixture;
beforeAll(async () => {
  server = await startOpenAiFixture();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const agent = (extra: Partial<Parameters<typeof openaiAgent>[0]> = {}) =>
  openaiAgent({ modelId: 'test-model', baseUrl: server.baseUrl, apiKey: 'sk-test', ...extra });

const REPORT = {
  task_name: 'Headcount summary',
  content: [{ type: 'text', text: 'Operations is the largest department.' }],
  next_steps: [{ step_description: 'Break down attrition by location' }],
};

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the turn to fail');
}

describe('openai provider', () => {
  it('streams the answer, validates the report and sends the module instructions, key and model', async () => {
    server.enqueue(textReply(JSON.stringify(REPORT)));
    const turn = await runTurn(agent(), 'talent-intelligence', [
      userMessage('How many people work in Operations?'),
    ]);
    expect(turn.report).toEqual(REPORT);
    expect(StructuredResponse.parse(JSON.parse(turn.final.text))).toEqual(REPORT);
    expect(turn.events.filter((e) => e.type === 'text').length).toBeGreaterThan(3);
    expect(turn.streamed).toBe(JSON.stringify(REPORT));
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body.model).toBe('test-model');
    expect(req.body.stream).toBe(true);
    expect(req.body.messages[0]!.role).toBe('system');
    expect(String(req.body.messages[0]!.content)).toContain('Talent Intelligence analyst');
    // The module's analyst tools (the shared tool layer) are offered to the model.
    expect(req.body.tools!.map((t) => t.function.name)).toEqual(
      expect.arrayContaining([
        'list_attachments',
        'read_tables',
        'run_sql',
        'ti_headcount',
        'ti_pay',
      ]),
    );
  });

  it('runs a tool over the attached file and sends its result back in a second step', async () => {
    server.enqueue(
      toolCallReply([{ id: 'call_1', name: 'profile_table', args: { table: 'workforce.csv' } }]),
      textReply(JSON.stringify(REPORT)),
    );
    const turn = await runTurn(agent(), 'talent-intelligence', [
      userMessage('Profile the file', [fixture('workforce.csv')]),
    ]);
    expect(turn.thinking.some((l) => l.startsWith('Running profile_table'))).toBe(true);
    expect(server.requests).toHaveLength(2);
    const toolMessage = server.requests[1]!.body.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.tool_call_id).toBe('call_1');
    const result = JSON.parse(String(toolMessage.content)) as {
      rows: number;
      columns: Array<{ name: string; top?: Array<[string, number]> }>;
    };
    // Counted here from the file itself: every data row, and the largest department's rows.
    const rows = fixture('workforce.csv').data.toString('utf8').trim().split('\n').slice(1);
    const perDepartment = new Map<string, number>();
    for (const r of rows) {
      const d = r.split(',')[1]!;
      perDepartment.set(d, (perDepartment.get(d) ?? 0) + 1);
    }
    const [largest, ...rest] = [...perDepartment].sort((a, b) => b[1] - a[1]);
    expect(rest[0]![1]).toBeLessThan(largest![1]); // one largest, so the top entry is certain
    expect(result.rows).toBe(rows.length);
    const department = result.columns.find((c) => c.name === 'Department')!;
    expect(department.top![0]).toEqual(largest);
    expect(turn.report.task_name).toBe('Headcount summary');
  });

  it('reports a tool failure to the model instead of failing the turn', async () => {
    server.enqueue(
      toolCallReply([{ id: 'call_1', name: 'profile_table', args: { table: 'missing.csv' } }]),
      textReply(JSON.stringify(REPORT)),
    );
    const turn = await runTurn(agent(), 'talent-intelligence', [
      userMessage('Profile it', [fixture('workforce.csv')]),
    ]);
    const toolMessage = server.requests[1]!.body.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(String(toolMessage.content))).toEqual({
      error: 'No table "missing.csv". Tables: "t1" (workforce.csv).',
    });
    expect(turn.report).toEqual(REPORT);
  });

  it('turns reasoning deltas and <think> segments into thinking, never answer text', async () => {
    const json = JSON.stringify(REPORT);
    server.enqueue({
      kind: 'stream',
      items: [
        { delta: { reasoning_content: 'The user wants a summary.\nI will ' } },
        { delta: { reasoning_content: 'answer directly.' } },
        { delta: { content: '<thi' } },
        { delta: { content: 'nk>Checking the numbers</th' } },
        { delta: { content: `ink>${json.slice(0, 20)}` } },
        { delta: { content: json.slice(20) } },
      ],
    });
    const turn = await runTurn(agent(), 'governance', [userMessage('Summarise')]);
    expect(turn.thinking).toEqual(
      expect.arrayContaining([
        'The user wants a summary.',
        'I will answer directly.',
        'Checking the numbers',
      ]),
    );
    expect(turn.streamed).toBe(json);
    expect(turn.report).toEqual(REPORT);
  });

  it('repairs an almost-valid JSON answer', async () => {
    server.enqueue(
      textReply(
        "```json\n{task_name: 'Gap check', content: [{type: 'text', text: 'Two gaps'}], next_steps: ['Add a review date',]\n```",
      ),
    );
    const turn = await runTurn(agent(), 'governance', [userMessage('Check')]);
    expect(turn.report).toEqual({
      task_name: 'Gap check',
      content: [{ type: 'text', text: 'Two gaps' }],
      next_steps: [{ step_description: 'Add a review date' }],
    });
  });

  it('keeps a plain-text answer as written, code blocks included, with no report (no rename)', async () => {
    const answer = 'Avoid "synergy". Try:\n\n```js\nconst slogan = { text: "Pay in a tap" };\n```';
    server.enqueue(textReply(answer));
    const turn = await runTurn(agent(), 'brand-hub', [userMessage('Review: synergy for all')]);
    expect(turn.final.report).toBeNull();
    expect(turn.final.text).toBe(answer);
  });

  it('keeps code fences inside a report text part', async () => {
    const report = {
      task_name: 'Snippet',
      content: [{ type: 'text', text: 'Run:\n\n```python\nprint("hi")\n```' }],
      next_steps: [],
    };
    server.enqueue(textReply(`\`\`\`json\n${JSON.stringify(report)}\n\`\`\``));
    const turn = await runTurn(agent(), 'governance', [userMessage('Code')]);
    expect(turn.report).toEqual(report);
  });

  it('puts a text attachment in the prompt and offers the document tools', async () => {
    server.enqueue(textReply(JSON.stringify(REPORT)));
    await runTurn(agent(), 'brand-hub', [userMessage('Review this', [fixture('brand-copy.txt')])]);
    const user = server.requests[0]!.body.messages.find((m) => m.role === 'user')!;
    expect(String(user.content)).toContain('Introducing Nimbus Pay');
    expect(server.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['read_document', 'list_attachments']),
    );
  });

  const cases: Array<[string, () => void, RegExp]> = [
    [
      '401',
      () =>
        server.enqueue({
          kind: 'status',
          status: 401,
          body: { error: { message: 'Incorrect API key' } },
        }),
      /^The model server answered 401 \(check OPENAI_API_KEY\): Incorrect API key$/,
    ],
    [
      '429',
      () =>
        server.enqueue({ kind: 'status', status: 429, body: { error: { message: 'Rate limit' } } }),
      /answered 429 \(rate limited: wait a minute\): Rate limit/,
    ],
    [
      '500',
      () => server.enqueue({ kind: 'status', status: 500, body: { error: { message: 'boom' } } }),
      /^The model server answered 500: boom$/,
    ],
    [
      '404 model',
      () =>
        server.enqueue({
          kind: 'status',
          status: 404,
          body: { error: { message: 'model not found' } },
        }),
      /answered 404 \(check the company's model "test-model" and OPENAI_BASE_URL\): model not found/,
    ],
    [
      'a stream cut mid-way',
      () =>
        server.enqueue({
          kind: 'stream',
          items: [{ delta: { content: '{"task_name": "Half' } }],
          cut: true,
        }),
      /^The connection to the model server was cut before the answer finished$/,
    ],
    [
      'a stream cut after its first piece',
      () =>
        server.enqueue({
          kind: 'stream',
          items: [{ delta: { content: '{"task_name": "Half' } }],
          delayMs: 50,
          cut: true,
        }),
      // Not "The model server answered 200": the server had answered, then the stream broke off.
      /^The connection to the model server was cut before the answer finished$/,
    ],
    [
      'a malformed chunk',
      () =>
        server.enqueue({
          kind: 'stream',
          items: [{ delta: { content: '{"task' } }, { raw: '{not json' }],
        }),
      /malformed response/,
    ],
  ];
  for (const [name, script, message] of cases) {
    it(`turns ${name} into an AgentError a user can act on`, async () => {
      script();
      const err = await failure(runTurn(agent(), 'talent-intelligence', [userMessage('Hello')]));
      expect(err).toBeInstanceOf(AgentError);
      expect(err.message).toMatch(message);
      // The error dialog adds "Please try again" (spec section 8): never twice.
      expect(err.message).not.toMatch(/try again/i);
    });
  }

  it('sends the output limit as max_tokens', async () => {
    server.enqueue(textReply(JSON.stringify(REPORT)));
    await runTurn(agent({ maxOutputTokens: 4_321 }), 'governance', [userMessage('Hello')]);
    expect(server.requests[0]!.body.max_tokens).toBe(4_321);
  });

  it('shows the error event a server like llama.cpp sends after a silence, not the idle limit', async () => {
    const silence = new Promise((r) => setTimeout(r, 1_000));
    server.enqueue({
      kind: 'stream',
      items: [
        { delta: { content: '{"task_name": "Pay' } },
        {
          sse: 'error: {"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}',
        },
      ],
      pauseAt: { index: 1, until: silence },
      // The stream stays open after the error, as a proxy in front of it may keep it.
      holdUntil: new Promise(() => undefined),
    });
    const err = await failure(
      runTurn(agent({ idleTimeoutMs: 2_000 }), 'governance', [userMessage('Hello')]),
    );
    expect(err).toBeInstanceOf(AgentError);
    expect(err.message).toBe(
      'The model server reported an error in the middle of the answer: the request exceeds the available context size (400)',
    );
  });

  it('never repeats the key, even when the server echoes it back', async () => {
    server.enqueue({
      kind: 'status',
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-test. Find your key at ...' } },
    });
    const err = (await failure(
      runTurn(agent(), 'governance', [userMessage('Hello')]),
    )) as AgentError;
    expect(err.message).toBe(
      'The model server answered 401 (check OPENAI_API_KEY): Incorrect API key provided: [key]. Find your key at ...',
    );
    expect(JSON.stringify(err.detail)).not.toContain('sk-test');
    expect(JSON.stringify(err.detail)).toContain('[key]');
  });

  it('fails with a clear error when the endpoint hangs', async () => {
    server.enqueue({ kind: 'hang' });
    const started = Date.now();
    const err = await failure(
      runTurn(agent({ firstTokenTimeoutMs: 300 }), 'governance', [userMessage('Hello')]),
    );
    expect(err).toBeInstanceOf(AgentError);
    expect(err.message).toMatch(/sent nothing for 1 s after the request/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops when the turn is aborted (stop or the runtime timeout), passing the abort reason on', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const reason = new Error('stopped by the user');
    setTimeout(() => controller.abort(reason), 100);
    const err = await failure(
      runTurn(agent(), 'governance', [userMessage('Hello')], controller.signal),
    );
    expect(err).toBe(reason);
  });

  it('fails at turn time when OPENAI_BASE_URL is not set', async () => {
    const err = await failure(
      runTurn(
        openaiAgent({ modelId: 'gpt-4.1-mini', baseUrl: undefined, apiKey: undefined }),
        'governance',
        [userMessage('Hi')],
      ),
    );
    expect(err).toBeInstanceOf(AgentError);
    expect(err.message).toBe('The openai provider is not configured: set OPENAI_BASE_URL');
  });

  it('reports an unreachable endpoint', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = await startOpenAiFixture();
    await closed.close();
    const err = await failure(
      runTurn(openaiAgent({ modelId: 'm', baseUrl: closed.baseUrl, apiKey: 'k' }), 'governance', [
        userMessage('Hi'),
      ]),
    );
    expect(err).toBeInstanceOf(AgentError);
    expect(err.message).toMatch(/^Could not reach the model server at 127\.0\.0\.1:\d+/);
  });

  it('keeps the text of earlier turns in the prompt', async () => {
    server.enqueue(textReply(JSON.stringify(REPORT)));
    await runTurn(agent(), 'talent-intelligence', [
      userMessage('First question', [attachment('data.json', '[{"a":1}]')]),
      { role: 'assistant', text: 'First answer', attachments: [] },
      userMessage('Second question'),
    ]);
    const roles = server.requests[0]!.body.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user']);
    expect(String(server.requests[0]!.body.messages[1]!.content)).toContain(
      '[Attached file: data.json',
    );
  });
});

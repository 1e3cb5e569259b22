import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@contract/chats';
import { textReply, toolCallReply, type RecordedRequest } from '../test-support/openai-fixture';
import { useModelCompany } from '../test-support/browser/model-company';
import { createChat, onPage, openChatPage, typeAndSend } from '../test-support/browser/pages';
import { apiAs, gate, shot } from '../test-support/browser/support';

// The chat page's controls against the real server running a company on an OpenAI-compatible
// model ("with OPENAI_BASE_URL set, the same chats run on that model with the same
// tools"), the model being a local fixture whose pace the test sets: a report written with a tool
// call, a reply stopped half-way, the error dialog (on load and after a failed reply), and the
// notice of a reply that takes longer than 180 s, reached with Playwright's clock.
//
// The company is set up the way an operator does it (server/admin, on the server's database
// before the server starts) and is this run's own, so no other test's chats change model.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `controls-${runId}.com`;
const DEFAULT_DIALOG_BODY =
  'There has been an error completing this request. Please try again. If the error persists, please contact an admin.';

const POLICY = [
  '# Acceptable Use Policy',
  '## Purpose',
  'This policy sets out how company devices and accounts may be used.',
  '## Scope',
  'It applies to all employees and contractors.',
].join('\n');

const REPORT = {
  task_name: 'Acceptable use policy review',
  content: [
    {
      type: 'text',
      text: 'The policy covers **purpose** and **scope**; ownership and review dates are missing.',
    },
  ],
  next_steps: [{ step_description: 'Draft the missing ownership section' }],
};

/** The text of the last user message a model request carries (attachment notes included). */
function lastUserContent(req: RecordedRequest): string {
  const user = req.body.messages.filter((m) => m.role === 'user').at(-1);
  return String(user?.content ?? '');
}

/** How many user turns of a model request carry `text`. */
function userTurns(req: RecordedRequest, text: string): number {
  return req.body.messages.filter(
    (m) => m.role === 'user' && JSON.stringify(m.content).includes(text),
  ).length;
}

describe('chat controls on an OpenAI-compatible model', () => {
  const app = useModelCompany(
    'controls',
    DOMAIN,
    { firstName: 'Ada', lastName: 'Lovelace' },
    'governanceModel',
  );

  const api = (method: string, p: string, body?: unknown) =>
    apiAs(app.server, app.cookie, method, p, body);

  const newGovernanceChat = () =>
    createChat(app.server, app.cookie, { title: 'Governance Chat', module: 'governance' });

  async function messagesOf(chatId: string): Promise<MessageDto[]> {
    const res = await api('GET', `/api/chats/${chatId}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { messages: MessageDto[] }).messages;
  }

  const openChat = (chatId: string, opts?: Parameters<typeof openChatPage>[3]) =>
    openChatPage(app, app.cookie, chatId, opts);

  /** Sends the text and waits for it to show as the last user message. */
  async function send(page: Page, text: string) {
    await typeAndSend(page, text);
    await page.locator('li[data-role="user"]').last().getByText(text).waitFor();
  }

  const assistantRows = (page: Page) => page.locator('li[data-role="assistant"]');

  it('runs a Governance chat on the model: thinking while it works, its tool on the attachment, then the report', async () => {
    const chatId = await newGovernanceChat();
    await onPage(openChat(chatId), async ({ page }) => {
      app.model.requests.length = 0;
      // Step one: reasoning, then a call of the module's checklist tool on the attachment, held
      // open so the page can be seen thinking; step two: the report, written in pieces.
      const toolStep = toolCallReply([
        { id: 'call_1', name: 'checklist_coverage', args: { file: 'aup-draft.md' } },
      ]);
      if (toolStep.kind !== 'stream') throw new Error('a tool call is a stream');
      const toolStepDone = gate();
      app.model.enqueue(
        {
          ...toolStep,
          items: [
            { delta: { reasoning_content: 'Reading the attached policy.\n' } },
            { delta: { reasoning_content: 'Checking it against the governance checklist.\n' } },
            ...toolStep.items,
          ],
          delayMs: 100,
          holdUntil: toolStepDone.promise,
        },
        textReply(JSON.stringify(REPORT), 40, { delayMs: 60 }),
      );
      await page.getByTestId('file-input').setInputFiles({
        name: 'aup-draft.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(POLICY),
      });
      await send(page, 'Check our acceptable use policy');

      // Thinking: the label and the model's reasoning lines, while the model is still at work.
      const reply = assistantRows(page).last();
      await reply.getByText('AI is thinking...').waitFor();
      await reply.getByText('Checking it against the governance checklist.').waitFor();
      await page.getByText('Gathering information from agents').waitFor();
      await shot(page, 'controls-thinking');
      toolStepDone.open();

      const report = reply.locator('article');
      await report.waitFor({ timeout: 30_000 });
      await report.getByRole('heading', { name: REPORT.task_name }).waitFor();
      // The card shows while the report streams; its text arrives as it is written.
      await report.getByText(/ownership and review dates are missing/).waitFor();
      await report.getByText('Draft the missing ownership section').waitFor();
      // The chat title follows the report's task name.
      await page.getByRole('heading', { level: 2, name: REPORT.task_name }).waitFor();
      await shot(page, 'controls-report');

      // The company's model, key and module tools went to the endpoint, with the file announced.
      expect(app.model.requests).toHaveLength(2);
      const [req, second] = app.model.requests as [RecordedRequest, RecordedRequest];
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.body.model).toBe(app.modelId);
      expect(req.headers.authorization).toBe(`Bearer ${app.apiKey}`);
      expect(req.body.tools!.map((t) => t.function.name)).toEqual(
        expect.arrayContaining([
          'checklist_coverage',
          'board_pack_summary',
          'risk_register_review',
          'read_document',
          'run_sql',
        ]),
      );
      expect(lastUserContent(req)).toContain('[Attached file: aup-draft.md');
      // The tool ran on the attached text and its result went back to the model.
      const toolMessage = second.body.messages.find((m) => m.role === 'tool');
      expect(toolMessage?.tool_call_id).toBe('call_1');
      const result = JSON.parse(String(toolMessage!.content)) as {
        items: Array<{ item: string; status: string }>;
      };
      expect(result.items.some((i) => i.status === 'covered')).toBe(true);
      expect(result.items.some((i) => i.status === 'missing')).toBe(true);

      const stored = await messagesOf(chatId);
      expect(stored.at(-1)).toMatchObject({ role: 'assistant', status: 'complete' });
      expect(stored.at(-1)!.structuredResponse?.task_name).toBe(REPORT.task_name);
    });
  });

  it('stops a reply while it streams: the partial text stays and the reply is marked stopped', async () => {
    const chatId = await newGovernanceChat();
    await onPage(openChat(chatId), async ({ page }) => {
      app.model.requests.length = 0;
      const words =
        'The register lists twelve risks. Three of them have no owner yet, and two controls are overdue for review. ';
      const never = gate();
      // Written slowly, then held open: the stop comes while the model is still writing.
      app.model.enqueue(textReply(words, 6, { delayMs: 80, holdUntil: never.promise }));
      await send(page, 'Summarise the risk register');

      const reply = assistantRows(page).last();
      await reply
        .locator('[data-streaming="true"]')
        .getByText('Three of them have no owner')
        .waitFor();
      const stopButton = page.getByRole('button', { name: 'Stop' });
      expect(await stopButton.isVisible()).toBe(true);
      await shot(page, 'controls-streaming');
      await stopButton.click();

      await page.locator('li[data-role="assistant"][data-status="stopped"]').waitFor();
      await reply.getByText('Stopped', { exact: true }).waitFor();
      const shown = (await reply.textContent()) ?? '';
      expect(shown).toContain('The register lists twelve risks.');
      expect(shown).toContain('Three of them have no owner');
      await stopButton.waitFor({ state: 'detached' });
      await page.getByText('Gathering information from agents').waitFor({ state: 'hidden' });
      await shot(page, 'controls-stopped');

      // The server kept the same partial text, and the model's request was cut, not left running.
      const stored = (await messagesOf(chatId)).at(-1)!;
      expect(stored.status).toBe('stopped');
      const storedText = typeof stored.content === 'string' ? stored.content : '';
      expect(storedText.startsWith('The register lists twelve risks.')).toBe(true);
      expect(words.startsWith(storedText)).toBe(true);
      expect(shown).toContain(storedText.trim());
      await expect.poll(() => app.model.requests[0]?.closedEarly).toBe(true);
      never.open();

      // The chat takes the next message at once.
      app.model.enqueue(textReply(JSON.stringify(REPORT), 40));
      await send(page, 'Then review the policy instead');
      await assistantRows(page).last().locator('article').waitFor({ timeout: 30_000 });
    });
  });

  it('?error=true opens the error dialog on load; outside clicks leave it open; Retry runs the last turn again', async () => {
    const chatId = await newGovernanceChat();
    // A chat with one finished exchange to retry.
    await onPage(
      openChat(chatId),
      async ({ page }) => {
        app.model.enqueue(textReply(JSON.stringify(REPORT), 40));
        await send(page, 'List the policies due for review');
        await assistantRows(page).last().locator('article').waitFor({ timeout: 30_000 });
      },
      { checkErrors: false },
    );

    await onPage(openChat(chatId, { query: '?error=true' }), async ({ page }) => {
      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor();
      await dialog.getByRole('heading', { name: 'Error', exact: true }).waitFor();
      expect((await dialog.getByText(/Please try again\./).textContent())?.trim()).toBe(
        DEFAULT_DIALOG_BODY,
      );
      await shot(page, 'controls-error-dialog');

      // Outside clicks (on the overlay, away from the dialog) are ignored.
      await page.mouse.click(8, 8);
      await page.mouse.click(1270, 850);
      await page.waitForTimeout(300);
      expect(await dialog.isVisible()).toBe(true);

      app.model.requests.length = 0;
      app.model.enqueue(
        textReply(JSON.stringify({ ...REPORT, task_name: 'Policies due for review' }), 40),
      );
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await dialog.waitFor({ state: 'detached' });
      // The last message's turn runs again (its reply is written anew), not a second question.
      await assistantRows(page)
        .last()
        .getByRole('heading', { name: 'Policies due for review' })
        .waitFor({
          timeout: 30_000,
        });
      expect(await page.locator('li[data-role="user"]').count()).toBe(1);
      expect(await page.locator('li[data-role="user"]').textContent()).toContain(
        'List the policies due for review',
      );
      expect(lastUserContent(app.model.requests[0]!)).toBe('List the policies due for review');
      expect(userTurns(app.model.requests[0]!, 'List the policies due for review')).toBe(1);
      const stored = await messagesOf(chatId);
      expect(stored.filter((m) => m.role === 'user')).toHaveLength(1);
    });
  });

  it('?error=true: Retry runs the last message again together with its files', async () => {
    const chatId = await newGovernanceChat();
    await onPage(
      openChat(chatId),
      async ({ page }) => {
        app.model.enqueue(textReply(JSON.stringify(REPORT), 40));
        await page.getByTestId('file-input').setInputFiles({
          name: 'aup-draft.md',
          mimeType: 'text/markdown',
          buffer: Buffer.from(POLICY),
        });
        await send(page, 'Review the attached policy');
        await assistantRows(page).last().locator('article').waitFor({ timeout: 30_000 });
      },
      { checkErrors: false },
    );

    await onPage(
      openChat(chatId, { query: '?error=true' }),
      async ({ page }) => {
        const dialog = page.getByRole('alertdialog');
        await dialog.waitFor();
        app.model.requests.length = 0;
        app.model.enqueue(textReply(JSON.stringify(REPORT), 40));
        await dialog.getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => app.model.requests.length, { timeout: 30_000 }).toBe(1);
        await assistantRows(page).last().locator('article').waitFor({ timeout: 30_000 });
        expect(await page.locator('li[data-role="user"]').count()).toBe(1);
        const storedUsers = (await messagesOf(chatId)).filter((m) => m.role === 'user');
        expect(storedUsers).toHaveLength(1);
        // Spec section 4: "Error dialog Retry: closes and resubmits the last message and files."
        expect(
          lastUserContent(app.model.requests[0]!),
          'the resubmitted message should carry the file aup-draft.md of the last message',
        ).toContain('[Attached file: aup-draft.md');
      },
      { checkErrors: false },
    );
  });

  it('a failed reply opens the dialog with the server message; Retry runs the same turn once, with its files', async () => {
    const chatId = await newGovernanceChat();
    await onPage(openChat(chatId), async ({ page }) => {
      app.model.requests.length = 0;
      app.model.enqueue({ kind: 'status', status: 503 });
      await page.getByTestId('file-input').setInputFiles({
        name: 'aup-draft.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from(POLICY),
      });
      await send(page, 'Check this policy');

      const dialog = page.getByRole('alertdialog');
      await dialog.waitFor({ timeout: 30_000 });
      await dialog.getByRole('heading', { name: 'Error', exact: true }).waitFor();
      expect((await dialog.getByText(/Please try again\./).textContent())?.trim()).toBe(
        // The model server's own words, then the dialog's fixed advice.
        'The model server answered 503: scripted 503. Please try again. If the error persists, please contact an admin.',
      );
      await page.mouse.click(8, 8);
      await page.waitForTimeout(300);
      expect(await dialog.isVisible()).toBe(true);

      app.model.requests.length = 0;
      app.model.enqueue(textReply(JSON.stringify(REPORT), 40));
      await dialog.getByRole('button', { name: 'Retry' }).click();
      await dialog.waitFor({ state: 'detached' });
      await assistantRows(page).last().locator('article').waitFor({ timeout: 30_000 });

      // The same turn again: the question once in the thread (with its file) and once in what
      // the model receives, one reply in place of the failed one.
      const users = page.locator('li[data-role="user"]');
      expect(await users.count()).toBe(1);
      expect(await users.textContent()).toContain('Check this policy');
      await users.getByRole('button', { name: 'Download aup-draft.md' }).waitFor();
      expect(await assistantRows(page).count()).toBe(1);
      expect(app.model.requests).toHaveLength(1);
      expect(lastUserContent(app.model.requests[0]!)).toContain('[Attached file: aup-draft.md');
      expect(userTurns(app.model.requests[0]!, 'Check this policy')).toBe(1);
      const stored = await messagesOf(chatId);
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(JSON.stringify(stored[0]!.content)).toContain('aup-draft.md');
    });
  });

  it('shows "Message is taking longer than expected to load." after 180 s, with a Retry that refetches', async () => {
    const chatId = await newGovernanceChat();
    await onPage(
      openChat(chatId, {
        before: (p) => p.clock.install(),
      }),
      async ({ page }) => {
        const held = gate();
        app.model.enqueue(
          textReply('Still working on the register.', 10, { holdUntil: held.promise }),
        );
        await send(page, 'Build the full risk register');
        await assistantRows(page).last().getByText('Still working on the register.').waitFor();
        const notice = page
          .getByRole('alert')
          .filter({ hasText: 'Message is taking longer than expected to load.' });
        expect(await notice.count()).toBe(0);

        // Well before 180 s there is no notice; just past it, the notice appears.
        await page.clock.fastForward('02:50');
        await page.waitForTimeout(300);
        expect(await notice.count()).toBe(0);
        await page.clock.fastForward('00:11');
        await notice.waitFor();
        await notice
          .getByText('Message is taking longer than expected to load.', { exact: true })
          .waitFor();
        await shot(page, 'controls-stale');

        // Retry refetches the chat: with the page's clock paused (no polling), the click alone asks.
        const fakeNow = await page.evaluate(() => Date.now());
        await page.clock.pauseAt(fakeNow + 1_000);
        const chatGets: string[] = [];
        page.on('request', (r) => {
          if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/chats/${chatId}`)
            chatGets.push(r.url());
        });
        await page.waitForTimeout(2_500);
        expect(chatGets).toEqual([]);
        await notice.getByRole('button', { name: 'Retry' }).click();
        await expect.poll(() => chatGets.length).toBeGreaterThan(0);
        // Still loading: the notice stays until the reply ends.
        expect(await notice.isVisible()).toBe(true);
        await page.clock.resume();

        held.open();
        await page
          .locator('li[data-role="assistant"][data-status="complete"]')
          .waitFor({ timeout: 30_000 });
        await notice.waitFor({ state: 'detached' });
      },
    );
  });
});

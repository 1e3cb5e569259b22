import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MessageDto } from '@contract/chats';
import { MODEL_TRUNCATED_MESSAGE } from '@contract/models';
import { textReply, type Reply } from '../test-support/openai-fixture';
import { useModelCompany } from '../test-support/browser/model-company';
import { createChat, onPage, openChatPage, typeAndSend } from '../test-support/browser/pages';
import { apiAs, gate, shot } from '../test-support/browser/support';

// A report written by a real-model endpoint, watched in Chromium while it streams: the page shows
// it as a report from the first chunks (task name, markdown text growing, a chart placeholder),
// never its JSON, at any moment, and a report stopped half-way stays a card.

const runId = randomBytes(4).toString('hex');
const DOMAIN = `stream-${runId}.com`;

const REPORT = {
  task_name: 'Headcount by department',
  content: [
    {
      type: 'text',
      text: '**Operations** is the largest team: 12 of 49 people.\n\n```sql\nSELECT department, count(*) FROM people GROUP BY 1;\n```\n\nSales follows with 9.',
    },
    {
      type: 'chart',
      title: 'Headcount by department',
      chart_type: 'bar',
      config: {
        type: 'bar',
        data: {
          labels: ['Operations', 'Sales', 'Finance'],
          datasets: [{ label: 'People', data: [12, 9, 6] }],
        },
      },
    },
  ],
  next_steps: [{ step_description: 'Break attrition down by location' }],
};

/** The report as the model writes it. */
const REPORT_JSON = JSON.stringify(REPORT);

/** What the page saw of a reply being followed (see the long-answer test). */
interface Follow {
  writes: number;
  scrolls: number;
  hidden: number;
  streaming: number;
}

/**
 * In the page, from now on: every write of a streaming reply's text, every scroll of the
 * conversation while one streams, and, two frames after each write (when the view has moved on
 * if it had to), whether the newest line was below the bottom edge of the view.
 */
async function watchFollow(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __follow: Follow };
    const f = (w.__follow = { writes: 0, scrolls: 0, hidden: 0, streaming: 0 });
    const scroller = () => document.querySelector('[data-testid="message-scroller"]')!;
    // (The conversation's scroller appears with the first message: listened for on the
    // document, where scroll events of every element pass on their way down.)
    document.addEventListener(
      'scroll',
      (e) => {
        if (e.target === scroller() && document.querySelector('[data-streaming="true"]'))
          f.scrolls++;
      },
      true,
    );
    new MutationObserver(() => {
      const live = document.querySelector<HTMLElement>('[data-streaming="true"]');
      if (!live) return;
      f.writes++;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const line = live.lastElementChild ?? live;
          if (!line.isConnected) return;
          f.streaming++;
          const bottom = line.getBoundingClientRect().bottom;
          if (bottom > scroller().getBoundingClientRect().bottom + 1) f.hidden++;
        }),
      );
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const readFollow = (page: Page) =>
  page.evaluate(() => (window as unknown as { __follow: Follow }).__follow);

/** About 95 lines at the test's width: several views' worth. */
const LONG_ANSWER = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i + 1}: leavers in the last twelve months, by team and by tenure band, ` +
    `with the reasons people gave in their exit interviews.`,
).join('\n\n');

/** Records, on every DOM change before it is painted, whether a reply ever showed report JSON. */
const WATCH_FOR_JSON = `
  window.__sawJson = [];
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('li[data-role="assistant"]')) {
      const t = row.textContent || '';
      if (t.includes('"task_name"') || t.includes('{"') || t.includes('"content":')) window.__sawJson.push(t.slice(0, 200));
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

describe('a report streaming from a model, in the browser', () => {
  const app = useModelCompany('stream', DOMAIN, { firstName: 'Grace', lastName: 'Hopper' });

  const api = (method: string, p: string, body?: unknown) =>
    apiAs(app.server, app.cookie, method, p, body);

  /** A signed-in page on a new Talent Intelligence chat, watching for report JSON. */
  async function openNewChat() {
    const chatId = await createChat(app.server, app.cookie, {
      title: 'Talent Intelligence Chat',
      module: 'talent-intelligence',
    });
    const opened = await openChatPage(app, app.cookie, chatId, {
      before: (page) => page.addInitScript(WATCH_FOR_JSON),
    });
    return { chatId, ...opened };
  }

  /** A test's steps on a new chat's page (see onPage). */
  const inNewChat = (steps: (opened: Awaited<ReturnType<typeof openNewChat>>) => Promise<void>) =>
    onPage(openNewChat(), steps);

  const sawJson = (page: Page) =>
    page.evaluate(() => (window as unknown as { __sawJson: string[] }).__sawJson);

  /** The chat's stored messages, as the history call returns them. */
  async function storedMessages(chatId: string): Promise<MessageDto[]> {
    return ((await (await api('GET', `/api/chats/${chatId}`)).json()) as { messages: MessageDto[] })
      .messages;
  }

  /**
   * Sends `text` while the model writes the report up to `upTo` (an index in REPORT_JSON, or the
   * first place of a text in it) in chunks of 6, `delayMs` apart, and then holds the reply open
   * until `open()`: the reply's row is returned to watch.
   */
  async function sendHeldReport(page: Page, text: string, upTo: number | string, delayMs: number) {
    const end = typeof upTo === 'string' ? REPORT_JSON.indexOf(upTo) : upTo;
    const never = gate();
    app.model.enqueue(
      textReply(REPORT_JSON.slice(0, end), 6, {
        delayMs,
        holdUntil: never.promise,
      }),
    );
    await typeAndSend(page, text);
    return { open: never.open, reply: page.locator('li[data-role="assistant"]').last() };
  }

  /** The last stopped reply's card, once it shows the report's task name. */
  async function stoppedCard(page: Page) {
    const card = page.locator('li[data-role="assistant"][data-status="stopped"] article').last();
    await card.getByRole('heading', { name: REPORT.task_name }).waitFor();
    return card;
  }

  /** Presses Stop; the stopped reply's row. */
  async function stop(page: Page) {
    await page.getByRole('button', { name: 'Stop' }).click();
    return page.locator('li[data-role="assistant"][data-status="stopped"]').last();
  }

  it('shows the report as a report from its first chunks to the end, never its JSON', async () => {
    await inNewChat(async ({ chatId, page }) => {
      const release = gate();
      // Written in small pieces, pausing in the middle of the chart's data until released.
      const size = 7;
      const paused = textReply(REPORT_JSON, size, { delayMs: 20 });
      if (paused.kind !== 'stream') throw new Error('a text reply is a stream');
      app.model.enqueue({
        ...paused,
        pauseAt: {
          index: Math.floor(REPORT_JSON.indexOf('"Sales",') / size),
          until: release.promise,
        },
      });
      await typeAndSend(page, 'Headcount by department, please');

      const streaming = page.locator(
        'li[data-role="assistant"] article[data-partial-report="streaming"]',
      );
      await streaming.getByRole('heading', { name: /Headcount by/ }).waitFor({ timeout: 30_000 });
      // Text parts render as markdown while they grow.
      await streaming.locator('strong', { hasText: 'Operations' }).waitFor();
      await shot(page, 'stream-report-text');
      // The chart is a placeholder until its object is whole, then drawn.
      await streaming.getByText(/Chart: Headcount by department/).waitFor();
      await streaming.locator('[data-code-block="sql"]').waitFor();
      await shot(page, 'stream-report-chart-placeholder');
      release.open();

      const done = page.locator('li[data-role="assistant"][data-status="complete"] article');
      await done.getByRole('heading', { name: REPORT.task_name }).waitFor({ timeout: 30_000 });
      await done.getByText('Break attrition down by location').waitFor();
      // The finished code block is highlighted and keeps its copy button.
      await done.locator('[data-code-block="sql"] pre.shiki').waitFor();
      await done.getByRole('button', { name: 'Copy code' }).waitFor();
      await shot(page, 'stream-report-done');

      expect(await sawJson(page)).toEqual([]);
      // The chat takes the report's task name, shown as soon as the reply is done.
      await page.getByRole('heading', { level: 2, name: REPORT.task_name }).waitFor();
      const stored = (await (await api('GET', `/api/chats/${chatId}`)).json()) as {
        title: string;
        messages: MessageDto[];
      };
      expect(stored.messages.at(-1)!.structuredResponse?.task_name).toBe(REPORT.task_name);
      expect(stored.title).toBe(REPORT.task_name);
    });
  });

  it('stops a report half-way: it stays a card with what was written, never JSON', async () => {
    await inNewChat(async ({ chatId, page }) => {
      // Written slowly up to the middle of the text part, then held open.
      const never = await sendHeldReport(page, 'Headcount again', 'Sales follows', 20);
      const reply = never.reply;
      await reply.locator('strong', { hasText: 'Operations' }).waitFor({ timeout: 30_000 });
      await reply.getByText(/12 of 49 people/).waitFor();
      const stopped = await stop(page);
      await stopped.waitFor();
      const card = stopped.locator('article');
      await card.getByRole('heading', { name: REPORT.task_name }).waitFor();
      await card.getByText(/12 of 49 people/).waitFor();
      await stopped.getByText('Stopped', { exact: true }).waitFor();
      // A stopped report does not rename the chat: only a finished report's task name does.
      await page.getByRole('heading', { level: 2, name: 'Talent Intelligence Chat' }).waitFor();
      await shot(page, 'stream-report-stopped');
      expect(await sawJson(page)).toEqual([]);

      // The stored reply is the partial text; after a reload it is still shown as a card.
      const stored = { messages: await storedMessages(chatId) };
      expect(stored.messages.at(-1)!.status).toBe('stopped');
      await page.reload();
      const again = await stoppedCard(page);
      await again.getByText(/12 of 49 people/).waitFor();
      expect(await sawJson(page)).toEqual([]);
      never.open();
    });
  });

  it('stopped while its first text part is on screen, just after a backslash: the text shown stays, also after a reload', async () => {
    await inNewChat(async ({ chatId, page }) => {
      // The model has written up to the backslash of an escape (`\n`, `\u00fc`) and is held there:
      // Stop lands where any chunk boundary may.
      const cut = REPORT_JSON.indexOf('people.') + 'people.'.length + 1;
      expect(REPORT_JSON[cut - 1]).toBe('\\');
      const never = await sendHeldReport(page, 'Headcount, briefly', cut, 10);
      await never.reply.getByText(/12 of 49 people/).waitFor({ timeout: 30_000 });
      const stopped = await stop(page);
      await stopped.getByText('Stopped', { exact: true }).waitFor();
      const check = async () => {
        const card = await stoppedCard(page);
        await card.getByText(/12 of 49 people\.$/).waitFor();
        expect(await sawJson(page)).toEqual([]);
      };
      await check();
      const stored = { messages: await storedMessages(chatId) };
      expect(stored.messages.at(-1)).toMatchObject({
        status: 'stopped',
        content: REPORT_JSON.slice(0, cut),
      });
      await page.reload();
      await check();
      never.open();
    });
  });

  it('stopped inside a chart: the text stays and the unfinished chart is left out', async () => {
    await inNewChat(async ({ page }) => {
      const never = await sendHeldReport(page, 'Headcount with a chart', '"Sales",', 10);
      await never.reply.getByText(/Chart: Headcount by department/).waitFor({ timeout: 30_000 });
      const stopped = await stop(page);
      await stopped.getByText('Stopped', { exact: true }).waitFor();
      const check = async () => {
        const card = await stoppedCard(page);
        await card.getByText('Sales follows with 9.').waitFor();
        expect(await card.getByRole('button', { name: 'View Chart' }).count()).toBe(0);
        expect(await card.locator('canvas').count()).toBe(0);
      };
      await check();
      await shot(page, 'stream-report-stopped-in-chart');
      await page.reload();
      await check();
      never.open();
    });
  });

  it('a report cut at the output limit stays a card, says so, and Continue completes it', async () => {
    await inNewChat(async ({ chatId, page }) => {
      app.model.requests.length = 0;
      const cut = REPORT_JSON.indexOf('Sales follows');
      app.model.enqueue({
        ...textReply(REPORT_JSON.slice(0, cut), 40),
        finishReason: 'length',
      } as Reply);
      await typeAndSend(page, 'Headcount, in full');
      const failed = page.locator('li[data-role="assistant"][data-status="error"]').last();
      await failed
        .getByRole('alert')
        .getByText(MODEL_TRUNCATED_MESSAGE)
        .waitFor({ timeout: 30_000 });
      await failed.locator('article').getByRole('heading', { name: REPORT.task_name }).waitFor();
      await failed
        .locator('article')
        .getByText(/12 of 49 people/)
        .waitFor();
      // Not a failed request: no blocking error dialog, the row itself offers Continue.
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await shot(page, 'stream-report-truncated');
      expect(await sawJson(page)).toEqual([]);

      // Continue asks the model for the rest, given the cut answer; the new reply is the whole report.
      app.model.enqueue(textReply(REPORT_JSON.slice(cut), 40));
      await failed.getByRole('button', { name: 'Continue' }).click();
      const done = page.locator('li[data-role="assistant"][data-status="complete"] article').last();
      await done.getByRole('heading', { name: REPORT.task_name }).waitFor({ timeout: 30_000 });
      await done.getByText('Sales follows with 9.').waitFor();
      await done.getByText('Break attrition down by location').waitFor();
      const last = app.model.requests.at(-1)!.body.messages;
      expect(last.at(-2)).toMatchObject({ role: 'assistant', content: REPORT_JSON.slice(0, cut) });
      expect(String(last.at(-1)!.content)).toMatch(/Continue it exactly where it stopped/);
      const stored = { messages: await storedMessages(chatId) };
      expect(stored.messages.at(-1)!.structuredResponse).toEqual(REPORT);
      expect(await sawJson(page)).toEqual([]);
      await shot(page, 'stream-report-continued');
    });
  });

  it('a long answer grows into room below it: the view keeps still, moves on a room at a time, and closes the room when done', async () => {
    await inNewChat(async ({ page }) => {
      // Written 30 characters every 20 ms.
      app.model.enqueue(textReply(LONG_ANSWER, 30, { delayMs: 20 }));
      await watchFollow(page);
      await typeAndSend(page, 'Write the leavers summary out in full');
      const reply = page.locator('li[data-role="assistant"]').last();
      await reply.getByText('Paragraph 12:').waitFor({ timeout: 30_000 });
      await shot(page, 'stream-long-answer-room');
      await page
        .locator('li[data-role="assistant"][data-status="complete"]')
        .getByText('Paragraph 40:')
        .waitFor({ timeout: 30_000 });
      const follow = await readFollow(page);
      // The newest text was always in view.
      expect(follow.streaming).toBeGreaterThan(20);
      expect(follow.hidden).toBe(0);
      // The view moved on a room at a time, not with every write.
      expect(follow.scrolls).toBeGreaterThan(0);
      expect(follow.scrolls).toBeLessThan(follow.writes / 3);
      // Done: no room left below the answer; the view is at its end.
      const after = await page.getByTestId('message-scroller').evaluate((el) => {
        const row = [...el.querySelectorAll<HTMLElement>('li[data-role="assistant"]')].at(-1)!;
        return {
          // (The room is a min-height under the list while the reply is written.)
          roomLeft: el.querySelectorAll('[style*="min-height"]').length,
          fromEnd: el.scrollHeight - el.scrollTop - el.clientHeight,
          blank: el.getBoundingClientRect().bottom - row.getBoundingClientRect().bottom,
        };
      });
      expect(after.roomLeft).toBe(0);
      expect(after.fromEnd).toBeLessThan(2);
      expect(after.blank).toBeLessThan(40);
      await shot(page, 'stream-long-answer-done');
    });
  });

  it('a reader back at the end while the model is still thinking gets the room too', async () => {
    await inNewChat(async ({ page }) => {
      // A conversation longer than the view, to scroll up in.
      app.model.enqueue(textReply(LONG_ANSWER, 400));
      await typeAndSend(page, 'Write the leavers summary out in full');
      await page
        .locator('li[data-role="assistant"][data-status="complete"]')
        .getByText('Paragraph 40:')
        .waitFor({ timeout: 30_000 });
      // The next answer waits before its first word while the reader scrolls up and back down.
      const release = gate();
      const held = textReply(LONG_ANSWER, 30, { delayMs: 20 });
      if (held.kind !== 'stream') throw new Error('a text reply is a stream');
      app.model.enqueue({ ...held, pauseAt: { index: 0, until: release.promise } });
      await typeAndSend(page, 'And once more, please');
      await page.locator('li[data-role="assistant"][aria-busy="true"]').waitFor();
      const scroller = page.getByTestId('message-scroller');
      await scroller.hover();
      await page.mouse.wheel(0, -1_500);
      await page.waitForTimeout(300);
      expect(
        await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight),
      ).toBeGreaterThan(1_000);
      await page.mouse.wheel(0, 5_000);
      await page.waitForTimeout(300);
      await watchFollow(page);
      release.open();
      await page
        .locator('li[data-role="assistant"][data-status="complete"]')
        .nth(1)
        .getByText('Paragraph 40:')
        .waitFor({ timeout: 30_000 });
      const follow = await readFollow(page);
      expect(follow.streaming).toBeGreaterThan(20);
      expect(follow.hidden).toBe(0);
      // The view moved on a room at a time, not with every write.
      expect(follow.scrolls).toBeLessThan(follow.writes / 3);
    });
  });
});

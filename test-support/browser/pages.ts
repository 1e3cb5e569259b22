import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { CreateChatBody } from '@contract/chats';
import { newPage, type RunningServer } from './harness';
import {
  apiAs,
  cookieIntoContext,
  signUpThroughApi,
  type ServerAndBrowser,
  type SessionCookie,
  type SignedUpUser,
  type SignUpDetails,
} from './support';

// The frame of a browser test around one page: a page signed in as someone, on a chat, checked
// for page and console errors and closed whatever happened
// (docs/decisions/0100-browser-test-support.md).

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Page and console errors, in order (see newPage). */
  errors: string[];
}

export type PageOptions = Parameters<typeof newPage>[1];

/** A fresh page (see newPage) whose context carries the session cookie: it opens signed in. */
export async function signedInPage(
  app: ServerAndBrowser,
  cookie: SessionCookie,
  opts?: PageOptions,
): Promise<OpenedPage> {
  const opened = await newPage(app.browser, opts);
  await cookieIntoContext(opened.context, app.server, cookie);
  return opened;
}

/** Signs a new user up through the API and opens a page signed in as them. */
export async function signUpAndOpen(
  app: ServerAndBrowser,
  details: SignUpDetails,
  opts?: PageOptions,
): Promise<OpenedPage & SignedUpUser> {
  const user = await signUpThroughApi(app.server, details);
  return { ...user, ...(await signedInPage(app, user.cookie, opts)) };
}

/**
 * signUpAndOpen (in light), and a new Talent Intelligence chat of the user's: where the tests of
 * a conversation with the builtin analyst start.
 */
export async function signUpWithChat(
  app: ServerAndBrowser,
  details: SignUpDetails,
): Promise<OpenedPage & SignedUpUser & { chatId: string }> {
  const opened = await signUpAndOpen(app, details, { colorScheme: 'light' });
  const chatId = await createChat(app.server, opened.cookie, {
    title: 'Talent Intelligence Chat',
    module: 'talent-intelligence',
  });
  return { ...opened, chatId };
}

/** Creates a chat through the API as `cookie` (what a module's New chat button does); its id. */
export async function createChat(
  server: RunningServer,
  cookie: SessionCookie,
  body: CreateChatBody,
): Promise<string> {
  const res = await apiAs(server, cookie, 'POST', '/api/chats', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Opens the chat on the page (`query` after its path) and waits until it is connected and ready to send. */
export async function gotoChat(
  page: Page,
  server: RunningServer,
  chatId: string,
  query = '',
): Promise<void> {
  await page.goto(`${server.url}/chat/${chatId}${query}`);
  await page.getByText('Connecting to chat...').waitFor({ state: 'hidden' });
  await page.getByPlaceholder('Type your message...').waitFor();
}

/**
 * A signed-in page (see newPage for `page`) on the chat, connected and ready to send; `before`
 * runs on the page before it opens the chat (an init script, a clock, listeners), `query`
 * follows the chat's path.
 */
export async function openChatPage(
  app: ServerAndBrowser,
  cookie: SessionCookie,
  chatId: string,
  opts: { query?: string; before?: (page: Page) => unknown; page?: PageOptions } = {},
): Promise<OpenedPage> {
  const opened = await signedInPage(app, cookie, opts.page);
  await opts.before?.(opened.page);
  await gotoChat(opened.page, app.server, chatId, opts.query);
  return opened;
}

/**
 * Runs a test's steps on the page being opened, then, when they passed, checks that the page
 * logged no error (unless `checkErrors` is false: the test judges its errors itself); the
 * page's context is closed either way.
 */
export async function onPage<P extends OpenedPage>(
  opening: Promise<P>,
  steps: (opened: P) => Promise<void>,
  opts: { checkErrors?: boolean } = {},
): Promise<void> {
  const opened = await opening;
  try {
    await steps(opened);
    if (opts.checkErrors !== false) expect(opened.errors).toEqual([]);
  } finally {
    await opened.context.close();
  }
}

/** Types the text into the chat's message box and presses Enter. */
export async function typeAndSend(page: Page, text: string): Promise<void> {
  const box = page.getByPlaceholder('Type your message...');
  await box.fill(text);
  await box.press('Enter');
}

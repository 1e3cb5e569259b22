// Business constants and limits of spec section 9, shared by client and server.

export const PASSWORD_MIN = 8;
export const NAME_MIN = 1;
export const OTP_LENGTH = 6;
export const OTP_VALID_MINUTES = 15;

export const TITLE_MAX = 255;
export const FILE_NAME_MAX = 255;
export const STARTER_NAME_MAX = 255;
/** A starter template opens a chat prefilled with this and its description (spec section 4). */
export const STARTER_PREFILL_PREFIX = 'Help me with: ';
export const MODULE_MAX = 100;
export const TASK_TYPE_MAX = 100;
export const MEMORY_ID_MAX = 255;
export const SESSION_ID_MAX = 255;

export const TEMPLATES_PER_PAGE = 6;
export const RECENT_SKELETONS = 3;
export const TEMPLATE_SKELETONS = 6;

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MESSAGE_TIMEOUT_MS = 180_000;
export const PROGRESS_TO_90_MS = 180_000;
export const PROGRESS_HIDE_MS = 500;
export const POLL_INTERVAL_MS = 2_000;

export const WS_MAX_ATTEMPTS = 5;
export const WS_BACKOFF_START_MS = 1_000;
export const WS_BACKOFF_MAX_MS = 10_000;
export const CHAT_FETCH_RETRIES = 3;
export const CHAT_FETCH_RETRY_MAX_MS = 5_000;

export const THINKING_LINES = 10;
export const INPUT_MIN_PX = 72;
export const INPUT_MAX_PX = 200;
export const INPUT_ROWS = 3;

export const VIEWABLE_EXTENSIONS = ['md', 'txt', 'html'] as const;

export const VERIFY_REDIRECT_DELAYS_MS = [2_000, 1_000] as const;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5_000;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const THEME_STORAGE_KEY = 'vite-ui-theme';

/** Starter template description: a text column; bounded so a bad import cannot store megabytes. */
export const DESCRIPTION_MAX = 2_000;

// Constants of contract modules that hold schemas, kept here (no zod) so that a page using only
// them does not carry the schemas; each module re-exports its own (docs/decisions/0011-the-chat-route-bundle-budget.md).

/** GET /api/chats/search?q=: the longest search text. */
export const SEARCH_QUERY_MAX = 200;
/** Marks around a matched word in a search snippet (private-use characters: never in text). */
export const HIGHLIGHT_START = '\uE000';
export const HIGHLIGHT_END = '\uE001';

/** Close code of a socket whose session ended (logout, password change): do not reconnect. */
export const WS_CLOSE_SESSION_ENDED = 4001;

/**
 * What a user reads when a model's answer ends early, shown with the partial answer it kept.
 * The client offers Continue on exactly this message.
 */
export const MODEL_TRUNCATED_MESSAGE =
  'The model stopped because its output limit was reached; the answer is incomplete. Continue?';
export const MODEL_FILTERED_MESSAGE =
  "The model server's content filter stopped the answer; the answer is incomplete.";
/** The message Continue sends: the model goes on from where its last answer stopped. */
export const CONTINUE_REQUEST = 'Continue';

export const SUPPORTED_CHART_TYPES = [
  'bar',
  'line',
  'pie',
  'doughnut',
  'polararea',
  'radar',
  'bubble',
  'scatter',
] as const;

/** A saved file's type, from its extension: .md markdown, .html/.htm html, anything else text. */
export const FILE_TYPES = ['markdown', 'html', 'text'] as const;
export function fileTypeOf(fileName: string): (typeof FILE_TYPES)[number] {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'html' || ext === 'htm') return 'html';
  return 'text';
}

/** The error code of a send refused because a monthly budget is used up (429, ADR 0070). */
export const BUDGET_USED_UP_CODE = 'BUDGET_USED_UP';

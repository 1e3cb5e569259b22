// Business constants and limits of spec section 9, shared by client and server.

export const PASSWORD_MIN = 8;
export const NAME_MIN = 1;
export const OTP_LENGTH = 6;
export const OTP_VALID_MINUTES = 15;

export const TITLE_MAX = 255;
export const FILE_NAME_MAX = 255;
export const STARTER_NAME_MAX = 255;
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

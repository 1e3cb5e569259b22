import { ATTACHMENT_MAX_BYTES } from '@contract/constants';

/** A file in the composer (spec section 3): name, base64 data URL, type, size. */
export interface ComposerFile {
  name: string;
  dataUrl: string;
  type: string;
  size: number;
}

export type SendCheck = 'ok' | 'empty' | 'message-required' | 'busy';

/**
 * Spec section 5: nothing is sent with empty text and no files; files need a message; nothing
 * is sent while another send is in progress.
 */
export function checkSend(text: string, fileCount: number, sending: boolean): SendCheck {
  if (sending) return 'busy';
  const hasText = text.trim().length > 0;
  if (!hasText && fileCount === 0) return 'empty';
  if (!hasText) return 'message-required';
  return 'ok';
}

export function isTooLarge(size: number): boolean {
  return size > ATTACHMENT_MAX_BYTES;
}

export const MESSAGE_REQUIRED_TOAST = {
  title: 'Message required',
  description: 'Please add a message to accompany your file upload.',
} as const;

export const FILE_TOO_LARGE_TOAST = {
  title: 'File too large',
  description: 'Please select files smaller than 10MB.',
} as const;

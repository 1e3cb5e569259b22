import { expect } from 'vitest';
import type { LibraryDocumentDto, LibraryViewAnswer } from '@contract/library';
import { call } from './accounts';
import type { TestApp } from './app';

/** A text file in base64, as the library's upload takes it. */
export const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Adds (or versions) a document in a module's library through the API, as its admin. */
export async function uploadToLibrary(
  t: TestApp,
  cookie: string,
  module: string,
  fileName: string,
  text: string,
): Promise<LibraryDocumentDto> {
  const res = await call(
    t,
    'POST',
    '/api/library',
    { module, fileName, base64: b64(text) },
    { cookie },
  );
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json() as LibraryDocumentDto;
}

/** A document version's passages, as the library viewer lists them. */
export async function libraryPassages(t: TestApp, cookie: string, doc: LibraryDocumentDto) {
  const res = await call(t, 'GET', `/api/library/${doc.id}/versions/${doc.version}`, undefined, {
    cookie,
  });
  return (res.json() as LibraryViewAnswer).passages;
}

/**
 * A short brand guide as the library takes it: a voice section, and words whose banned list (the
 * passage copy reviews cite) is `banned`.
 */
export const brandGuide = (banned: string) => `# Brand guidelines

## 1 Voice
We sound warm, plain and confident.

## 2 Words

### 2.1 Tone
Write "you" and "we". Keep sentences short.

### 2.2 Banned words
Banned words: ${banned}.
`;

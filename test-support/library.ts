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

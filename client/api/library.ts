import { queryOptions } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import { http } from './http';

// The company library of a module page (docs/decisions/0065-company-library.md). The schemas
// load with the request (docs/decisions/0023-one-client-api-per-resource.md).
const contract = () => import('@contract/library');

export const libraryKey = (module: ModuleKey) => ['/api/library', { module }] as const;

/** GET /api/library?module=: the caller's company's documents, and whether they may change them. */
export function libraryQueryOptions(module: ModuleKey) {
  return queryOptions({
    queryKey: libraryKey(module),
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/library?module=${encodeURIComponent(module)}`,
        () => contract().then((m) => m.LibraryListAnswer),
        { signal },
      ),
  });
}

/** GET /api/library/search: passages of the module's library, best first. */
export function librarySearchQueryOptions(module: ModuleKey, q: string) {
  return queryOptions({
    queryKey: ['/api/library/search', { module, q }],
    enabled: q.trim().length > 0,
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/library/search?module=${encodeURIComponent(module)}&q=${encodeURIComponent(q)}&limit=10`,
        () => contract().then((m) => m.LibrarySearchAnswer),
        { signal },
      ),
  });
}

/** GET /api/library/:id/versions: every version kept, newest first (asked when shown). */
export function libraryVersionsQueryOptions(id: number, enabled: boolean) {
  return queryOptions({
    queryKey: ['/api/library/versions', { id }],
    enabled,
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/library/${id}/versions`,
        () => contract().then((m) => m.LibraryVersionsAnswer),
        { signal },
      ),
  });
}

/** GET /api/library/:id/versions/:version: the viewer's passages. */
export function libraryViewQueryOptions(id: number | null, version: number | null) {
  return queryOptions({
    queryKey: ['/api/library/view', { id, version }],
    enabled: id !== null && version !== null,
    queryFn: ({ signal }) =>
      http(
        'GET',
        `/api/library/${id}/versions/${version}`,
        () => contract().then((m) => m.LibraryViewAnswer),
        { signal },
      ),
  });
}

const documentAnswer = () => contract().then((m) => m.LibraryDocumentDto);

/** POST /api/library: a document added (a file name already there: its new version). */
export function uploadDocument(body: {
  module: ModuleKey;
  fileName: string;
  mimeType?: string;
  base64: string;
}) {
  return http('POST', '/api/library', documentAnswer, { body });
}

/** POST /api/library/:id/retire or /restore. */
export function setDocumentRetired(id: number, retired: boolean) {
  return http('POST', `/api/library/${id}/${retired ? 'retire' : 'restore'}`, documentAnswer);
}

/** DELETE /api/library/:id. */
export function deleteDocument(id: number) {
  return http('DELETE', `/api/library/${id}`, () =>
    import('@contract/errors').then((m) => m.MessageBody),
  );
}

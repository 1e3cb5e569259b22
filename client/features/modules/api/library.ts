import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LibraryDocumentDto,
  LibraryListAnswer,
  LibrarySearchAnswer,
  LibraryVersionsAnswer,
  LibraryViewAnswer,
} from '@contract/library';
import type { ModuleKey } from '@contract/modules';
import { apiJson } from '@/lib/api';

// The company library of a module page (docs/decisions/0065-company-library.md).

export const libraryKey = (module: ModuleKey) => ['/api/library', { module }] as const;

/** GET /api/library?module=: the caller's company's documents, and whether they may change them. */
export function useLibrary(module: ModuleKey) {
  return useQuery(
    queryOptions({
      queryKey: libraryKey(module),
      queryFn: () =>
        apiJson<LibraryListAnswer>('GET', `/api/library?module=${encodeURIComponent(module)}`),
    }),
  );
}

/** GET /api/library/search: passages of the module's library, best first. */
export function useLibrarySearch(module: ModuleKey, q: string) {
  return useQuery({
    queryKey: ['/api/library/search', { module, q }],
    enabled: q.trim().length > 0,
    queryFn: () =>
      apiJson<LibrarySearchAnswer>(
        'GET',
        `/api/library/search?module=${encodeURIComponent(module)}&q=${encodeURIComponent(q)}&limit=10`,
      ),
  });
}

/** GET /api/library/:id/versions: every version kept, newest first (asked when shown). */
export function useLibraryVersions(id: number, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/library/versions', { id }],
    enabled,
    queryFn: () => apiJson<LibraryVersionsAnswer>('GET', `/api/library/${id}/versions`),
  });
}

/** GET /api/library/:id/versions/:version: the viewer's passages. */
export function useLibraryView(id: number | null, version: number | null) {
  return useQuery({
    queryKey: ['/api/library/view', { id, version }],
    enabled: id !== null && version !== null,
    queryFn: () => apiJson<LibraryViewAnswer>('GET', `/api/library/${id}/versions/${version}`),
  });
}

/** The file's bytes as base64 (the upload body). */
export async function fileBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Add, replace (same file name: a new version), retire, restore and delete; admins only. */
export function useLibraryChanges(module: ModuleKey) {
  const client = useQueryClient();
  // The list, the search results and the version histories all change with a document.
  const done = () =>
    client.invalidateQueries({
      predicate: (q) => String(q.queryKey[0]).startsWith('/api/library'),
    });
  const upload = useMutation({
    mutationFn: async ({ file, fileName }: { file: File; fileName?: string }) =>
      apiJson<LibraryDocumentDto>('POST', '/api/library', {
        module,
        fileName: fileName ?? file.name,
        ...(file.type ? { mimeType: file.type } : {}),
        base64: await fileBase64(file),
      }),
    onSuccess: done,
  });
  const retire = useMutation({
    mutationFn: ({ id, retired }: { id: number; retired: boolean }) =>
      apiJson<LibraryDocumentDto>('POST', `/api/library/${id}/${retired ? 'retire' : 'restore'}`),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiJson<{ message: string }>('DELETE', `/api/library/${id}`),
    onSuccess: done,
  });
  return { upload, retire, remove };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModuleKey } from '@contract/modules';
import {
  deleteDocument,
  libraryQueryOptions,
  librarySearchQueryOptions,
  libraryVersionsQueryOptions,
  libraryViewQueryOptions,
  setDocumentRetired,
  uploadDocument,
} from '@/api/library';

// The company library of a module page (docs/decisions/0065-company-library.md).

export function useLibrary(module: ModuleKey) {
  return useQuery(libraryQueryOptions(module));
}

export function useLibrarySearch(module: ModuleKey, q: string) {
  return useQuery(librarySearchQueryOptions(module, q));
}

export function useLibraryVersions(id: number, enabled: boolean) {
  return useQuery(libraryVersionsQueryOptions(id, enabled));
}

export function useLibraryView(id: number | null, version: number | null) {
  return useQuery(libraryViewQueryOptions(id, version));
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
      uploadDocument({
        module,
        fileName: fileName ?? file.name,
        ...(file.type ? { mimeType: file.type } : {}),
        base64: await fileBase64(file),
      }),
    onSuccess: done,
  });
  const retire = useMutation({
    mutationFn: ({ id, retired }: { id: number; retired: boolean }) =>
      setDocumentRetired(id, retired),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: deleteDocument,
    onSuccess: done,
  });
  return { upload, retire, remove };
}

import { z } from 'zod';
import { FILE_NAME_MAX } from './constants';

export const FileType = z.enum(['markdown', 'html', 'text']);
export type FileType = z.infer<typeof FileType>;

/** fileType derives from the extension: .md markdown, .html/.htm html, anything else text. */
export function fileTypeOf(fileName: string): FileType {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'html' || ext === 'htm') return 'html';
  return 'text';
}

export const SaveFileBody = z.object({
  fileName: z.string().trim().min(1, 'File name is required').max(FILE_NAME_MAX),
  fileContent: z.string().max(5_000_000),
  fileType: FileType.optional(),
});
export type SaveFileBody = z.infer<typeof SaveFileBody>;

export const SavedFileDto = z.object({
  id: z.string(),
  fileName: z.string(),
  fileContent: z.string(),
  fileType: FileType,
  createdAt: z.string(),
});
export type SavedFileDto = z.infer<typeof SavedFileDto>;

/** DELETE /api/files/{fileId}. */
export const FileIdParams = z.object({ fileId: z.string() });

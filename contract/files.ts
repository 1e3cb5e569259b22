import { z } from 'zod';
import { FILE_NAME_MAX, FILE_TYPES } from './constants';

export { fileTypeOf } from './constants';

export const FileType = z.enum(FILE_TYPES);
export type FileType = z.infer<typeof FileType>;

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

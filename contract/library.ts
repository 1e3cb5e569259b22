import { z } from 'zod';
import { ModuleKey } from './modules';

// The company library's API (/api/library): documents per company and module, their versions
// and a full-text search over their passages. See docs/decisions/0065-company-library.md.

/** Largest document the library takes (decoded bytes). */
export const LIBRARY_MAX_BYTES = 50 * 1024 * 1024;
/** Longest search query. */
export const LIBRARY_QUERY_MAX = 500;

/** The document languages a passage can be indexed in (each with an unaccented configuration). */
export const LIBRARY_LANGUAGES = [
  'english',
  'german',
  'french',
  'spanish',
  'italian',
  'dutch',
  'portuguese',
] as const;
export type LibraryLanguage = (typeof LIBRARY_LANGUAGES)[number];

export const LIBRARY_MESSAGES = {
  adminsOnly: 'Only company admins can change the library',
  noCompany: 'You are not in a company: the library belongs to a company',
  notFound: 'Library document not found',
  tooBig: 'A library document is at most 50 MB',
  quota: (mb: number) =>
    `The company's library is full (${mb} MB): delete old documents or versions first`,
  badBase64: 'base64 must be the file content in base64',
  nameCompany: 'Name the company: ?company=<id>',
} as const;

export const LibraryModuleQuery = z.object({
  module: ModuleKey,
  /** Operators only: the company meant (others always get their own). */
  company: z.coerce.number().int().positive('Company must be a company id').optional(),
});
export type LibraryModuleQuery = z.infer<typeof LibraryModuleQuery>;

export const LibrarySearchQuery = LibraryModuleQuery.extend({
  q: z
    .string({ error: 'q is required' })
    .trim()
    .min(1, 'q is required')
    .max(LIBRARY_QUERY_MAX, `A search is at most ${LIBRARY_QUERY_MAX} characters`),
  limit: z.coerce.number().int().min(1).max(50, 'At most 50 results').default(10),
});
export type LibrarySearchQuery = z.infer<typeof LibrarySearchQuery>;

export const LibraryIdParam = z.object({
  id: z.coerce.number().int().positive('Not a document id').max(2_147_483_647, 'Not a document id'),
});
export const LibraryVersionParam = LibraryIdParam.extend({
  version: z.coerce.number().int().positive('Not a version').max(100_000, 'Not a version'),
});

/** POST /api/library: a new document, or a new version when the file name exists. */
export const LibraryUploadBody = z.object({
  module: ModuleKey,
  fileName: z
    .string({ error: 'fileName is required' })
    .trim()
    .min(1, 'fileName is required')
    .max(255, 'fileName is at most 255 characters')
    .refine((n) => !/[\\/\0]/.test(n), 'fileName must be a file name, not a path'),
  mimeType: z.string().trim().max(255).optional(),
  base64: z.string({ error: 'base64 is required' }).min(1, 'The file is empty'),
  /** The document's language; detected from its text when left out. */
  language: z.enum(LIBRARY_LANGUAGES, { error: () => 'Not a supported language' }).optional(),
});
export type LibraryUploadBody = z.infer<typeof LibraryUploadBody>;

export const LibraryDocumentDto = z.object({
  id: z.number().int(),
  module: ModuleKey,
  fileName: z.string(),
  /** The file name without its extension: how citations name it. */
  title: z.string(),
  language: z.enum(LIBRARY_LANGUAGES),
  version: z.number().int(),
  size: z.number().int(),
  passages: z.number().int(),
  addedBy: z.string().nullable(),
  addedAt: z.string(),
  retired: z.boolean(),
});
export type LibraryDocumentDto = z.infer<typeof LibraryDocumentDto>;

export const LibraryListAnswer = z.object({
  documents: z.array(LibraryDocumentDto),
  /** Bytes the company's library keeps (every version) and may keep. */
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
  canEdit: z.boolean(),
});
export type LibraryListAnswer = z.infer<typeof LibraryListAnswer>;

export const LibraryVersionDto = z.object({
  version: z.number().int(),
  size: z.number().int(),
  passages: z.number().int(),
  addedBy: z.string().nullable(),
  addedAt: z.string(),
  current: z.boolean(),
});
export type LibraryVersionDto = z.infer<typeof LibraryVersionDto>;

export const LibraryVersionsAnswer = z.object({
  document: LibraryDocumentDto,
  versions: z.array(LibraryVersionDto),
});
export type LibraryVersionsAnswer = z.infer<typeof LibraryVersionsAnswer>;

/** A passage where it stands: document, version, heading path, page or clause. */
export const LibraryPassageDto = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  title: z.string(),
  version: z.number().int(),
  headingPath: z.string(),
  clause: z.string().nullable(),
  page: z.number().int().nullable(),
  ordinal: z.number().int(),
  text: z.string(),
  /** "Brand guidelines v3, 2.1 Tone": how answers cite it. */
  citation: z.string(),
});
export type LibraryPassageDto = z.infer<typeof LibraryPassageDto>;

export const LibrarySearchAnswer = z.object({
  passages: z.array(LibraryPassageDto.extend({ rank: z.number() })),
});
export type LibrarySearchAnswer = z.infer<typeof LibrarySearchAnswer>;

/** GET /api/library/:id/versions/:version: the viewer's text, passage by passage. */
export const LibraryViewAnswer = z.object({
  document: LibraryDocumentDto,
  version: z.number().int(),
  passages: z.array(LibraryPassageDto),
});
export type LibraryViewAnswer = z.infer<typeof LibraryViewAnswer>;

/** `#library=<document>@<version>/<passage>`: the link a citation opens. */
export function citationHref(documentId: number, version: number, passageId: number): string {
  return `#library=${documentId}@${version}/${passageId}`;
}

export function parseCitationHref(
  href: string,
): { documentId: number; version: number; passageId: number } | null {
  const m = /#library=(\d+)@(\d+)\/(\d+)$/.exec(href);
  return m ? { documentId: Number(m[1]), version: Number(m[2]), passageId: Number(m[3]) } : null;
}

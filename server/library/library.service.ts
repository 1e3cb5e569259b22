import { eq } from 'drizzle-orm';
import {
  LIBRARY_MAX_BYTES,
  LIBRARY_MESSAGES,
  type LibraryDocumentDto,
  type LibraryLanguage,
} from '@contract/library';
import type { ModuleKey } from '@contract/modules';
import type { SplitPassage } from '../analyst/tools/library-passages';
import { runTool } from '../analyst/tools/runner';
import { recordAudit, type AuditOrigin } from '../audit/audit';
import type { Db } from '../db/connect';
import { companies, users, type User } from '../db/schema';
import type { Clock } from '../lib/clock';
import {
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from '../lib/errors';
import { addVersion, deleteDocument, findDocument, setRetired } from './library.repo';

// Who may do what in a company's library (docs/decisions/0065-company-library.md): members
// read their company's; company admins also change it; operators reach any company they name.
// Another company's document is a 404, the same answer as one that does not exist.

export interface LibraryCaller {
  /** Who acts; null for the admin command (recorded as such in the audit log). */
  actor: Pick<User, 'id' | 'email'> | null;
  companyId: number;
  canEdit: boolean;
}

/** The caller and the company their request is about, or 401/403/404. */
export async function libraryCaller(
  db: Db,
  userId: string,
  company: number | undefined,
): Promise<LibraryCaller> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user || user.disabledAt) throw new UnauthorizedError();
  if (user.role === 'operator') {
    const companyId = company ?? user.companyId;
    if (companyId === null || companyId === undefined)
      throw new ValidationError(LIBRARY_MESSAGES.nameCompany);
    const [c] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.id, companyId));
    if (!c) throw new NotFoundError('Company not found');
    return { actor: user, companyId, canEdit: true };
  }
  if (user.companyId === null) throw new ForbiddenError(LIBRARY_MESSAGES.noCompany);
  if (company !== undefined && company !== user.companyId)
    throw new NotFoundError('Company not found');
  return { actor: user, companyId: user.companyId, canEdit: user.role === 'admin' };
}

function actorOf(caller: LibraryCaller) {
  return caller.actor
    ? { actorId: caller.actor.id, actorEmail: caller.actor.email }
    : { actorId: null, actorEmail: 'admin command' };
}

export function requireEditor(caller: LibraryCaller): void {
  if (!caller.canEdit) throw new ForbiddenError(LIBRARY_MESSAGES.adminsOnly);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The file's bytes from base64 (whitespace allowed), or 400; past 50 MB a 413. */
export function decodeUpload(base64: string): Buffer {
  const compact = base64.replace(/\s+/g, '');
  // Checked before decoding: the decoded size is known from the length.
  if (Math.floor((compact.length * 3) / 4) - 2 > LIBRARY_MAX_BYTES)
    throw new PayloadTooLargeError(LIBRARY_MESSAGES.tooBig);
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw new ValidationError(LIBRARY_MESSAGES.badBase64);
  const data = Buffer.from(compact, 'base64');
  if (data.length > LIBRARY_MAX_BYTES) throw new PayloadTooLargeError(LIBRARY_MESSAGES.tooBig);
  if (!data.length) throw new ValidationError('The file is empty');
  return data;
}

const MIME_BY_EXT: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
};

export function mimeTypeOf(fileName: string, given?: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXT[ext] ?? (given || 'application/octet-stream');
}

/** The document read into passages in the analysis worker pool (never on the event loop). */
export async function readPassages(
  fileName: string,
  mimeType: string,
  data: Buffer,
  language?: LibraryLanguage,
): Promise<{ language: LibraryLanguage; passages: SplitPassage[] }> {
  const result = (await runTool('library_passages', language ? { language } : {}, [
    { fileName, mimeType, data },
  ])) as { error: string } | { language: LibraryLanguage; passages: SplitPassage[] };
  if ('error' in result) throw new ValidationError(result.error);
  if (!result.passages.length) throw new ValidationError(`${fileName} contains no text.`);
  return result;
}

export interface UploadInput {
  module: ModuleKey;
  fileName: string;
  mimeType?: string;
  data: Buffer;
  language?: LibraryLanguage;
}

/**
 * Adds a document or a new version of it: quota checked before the (slow) reading and again
 * under the company's lock when it is written; recorded in the audit log.
 */
export async function uploadDocument(
  deps: { db: Db; clock: Clock; quotaBytes: number },
  caller: LibraryCaller,
  input: UploadInput,
  origin: Partial<AuditOrigin> = {},
): Promise<{ document: LibraryDocumentDto; replaced: boolean }> {
  requireEditor(caller);
  const mimeType = mimeTypeOf(input.fileName, input.mimeType);
  const { language, passages } = await readPassages(
    input.fileName,
    mimeType,
    input.data,
    input.language,
  );
  const added = await addVersion(
    deps.db,
    {
      companyId: caller.companyId,
      module: input.module,
      fileName: input.fileName,
      mimeType,
      data: input.data,
      language,
      passages,
      addedBy: caller.actor ? { id: caller.actor.id, email: caller.actor.email } : null,
    },
    deps.quotaBytes,
  );
  if (!added)
    throw new PayloadTooLargeError(
      LIBRARY_MESSAGES.quota(Math.round((deps.quotaBytes / (1024 * 1024)) * 10) / 10),
    );
  await recordAudit(deps.db, deps.clock, {
    ...origin,
    companyId: caller.companyId,
    ...actorOf(caller),
    action: added.replaced ? 'library_replaced' : 'library_added',
    target: input.fileName,
    detail: `${input.module} v${added.document.version}, ${passages.length} passages`,
  });
  return added;
}

export async function retireDocument(
  deps: { db: Db; clock: Clock },
  caller: LibraryCaller,
  id: number,
  retired: boolean,
  origin: Partial<AuditOrigin> = {},
): Promise<LibraryDocumentDto> {
  requireEditor(caller);
  const doc = await setRetired(deps.db, caller.companyId, id, retired);
  if (!doc) throw new NotFoundError(LIBRARY_MESSAGES.notFound);
  await recordAudit(deps.db, deps.clock, {
    ...origin,
    companyId: caller.companyId,
    ...actorOf(caller),
    action: retired ? 'library_retired' : 'library_restored',
    target: doc.fileName,
    detail: `${doc.module} v${doc.version}`,
  });
  return doc;
}

export async function removeDocument(
  deps: { db: Db; clock: Clock },
  caller: LibraryCaller,
  id: number,
  origin: Partial<AuditOrigin> = {},
): Promise<string> {
  requireEditor(caller);
  const doc = await findDocument(deps.db, caller.companyId, id);
  if (!doc) throw new NotFoundError(LIBRARY_MESSAGES.notFound);
  const name = await deleteDocument(deps.db, caller.companyId, id);
  if (!name) throw new NotFoundError(LIBRARY_MESSAGES.notFound);
  await recordAudit(deps.db, deps.clock, {
    ...origin,
    companyId: caller.companyId,
    ...actorOf(caller),
    action: 'library_deleted',
    target: name,
    detail: `${doc.module}, ${doc.currentVersion} version${doc.currentVersion === 1 ? '' : 's'}`,
  });
  return name;
}

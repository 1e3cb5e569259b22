import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  LIBRARY_LANGUAGES,
  LIBRARY_MAX_BYTES,
  LIBRARY_MESSAGES,
  type LibraryLanguage,
} from '@contract/library';
import { MODULE_KEYS, ModuleKey } from '@contract/modules';
import type { Db } from '../db/connect';
import { findCompany } from '../admin/companies';
import { PayloadTooLargeError, ValidationError } from '../lib/errors';
import { systemClock } from '../lib/clock';
import { listDocuments } from './library.repo';
import { uploadDocument } from './library.service';
import { embedPending, prepareVectors, type Embedder } from './embeddings';

/** Thrown for a malformed library command: the admin command prints its usage. */
export class LibraryUsageError extends Error {}

export const LIBRARY_USAGE = `Company library
  library add "<company>" --module <module> <file> [--language <language>]
                       adds the file to the company's library of that module, or a new
                       version when a document of that file name exists
  library list "<company>" [--module <module>] [--json]`;

/**
 * `library add|list`: the library for automation (docs/decisions/0065-company-library.md). The
 * file is read in the analysis worker pool as an upload is; the audit log names the admin command.
 */
export async function libraryCommand(
  sub: string | undefined,
  args: string[],
  io: { db: Db; libraryQuotaBytes?: number; embedder?: Embedder; out: (t: string) => void },
): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      module: { type: 'string' },
      language: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const moduleOf = (v: string | undefined) => {
    const m = ModuleKey.safeParse(v);
    if (!m.success) throw new ValidationError(`--module must be one of ${MODULE_KEYS.join(', ')}`);
    return m.data;
  };
  if (sub === 'add') {
    const [ref, file, ...extra] = positionals;
    if (!ref || !file || extra.length || !values.module)
      throw new LibraryUsageError('Use: library add "<company>" --module <module> <file>');
    const module = moduleOf(values.module);
    const language = values.language as LibraryLanguage | undefined;
    if (language !== undefined && !LIBRARY_LANGUAGES.includes(language))
      throw new ValidationError(`--language must be one of ${LIBRARY_LANGUAGES.join(', ')}`);
    const company = await findCompany(io.db, ref);
    const size = (await stat(file).catch(() => null))?.size;
    if (size === undefined) throw new ValidationError(`No file at ${file}`);
    if (size > LIBRARY_MAX_BYTES) throw new PayloadTooLargeError(LIBRARY_MESSAGES.tooBig);
    const { document, replaced } = await uploadDocument(
      { db: io.db, clock: systemClock, quotaBytes: io.libraryQuotaBytes ?? 1024 * 1024 * 1024 },
      { actor: null, companyId: company.id, canEdit: true },
      {
        module,
        fileName: path.basename(file),
        data: await readFile(file),
        language,
      },
    );
    io.out(
      `${replaced ? 'New version' : 'Added'}: #${document.id} ${document.fileName} v${document.version} ` +
        `(${document.passages} passages, ${document.language}) in ${company.name}'s ${module} library.`,
    );
    // With an embedding endpoint (ADR 0026) the passages are embedded before the command ends;
    // a failure leaves them to the server's next start, full text serving them meanwhile.
    const embedder = io.embedder;
    if (embedder)
      await prepareVectors(io.db, embedder.model)
        .then(() => embedPending(io.db, embedder))
        .then(
          (n) => io.out(`Embedded ${n} passages.`),
          (err: unknown) =>
            io.out(
              `The passages could not be embedded now (${err instanceof Error ? err.message : String(err)}); the server embeds them when it next starts. Full-text search finds them meanwhile.`,
            ),
        );
    return;
  }
  if (sub === 'list') {
    const [ref, ...extra] = positionals;
    if (!ref || extra.length)
      throw new LibraryUsageError('Use: library list "<company>" [--module <module>]');
    const company = await findCompany(io.db, ref);
    const modules = values.module ? [moduleOf(values.module)] : [...MODULE_KEYS];
    const rows = [];
    for (const m of modules) rows.push(...(await listDocuments(io.db, company.id, m)));
    if (values.json) io.out(JSON.stringify(rows, null, 2));
    else
      io.out(
        rows.length
          ? rows
              .map(
                (d) =>
                  `#${d.id} [${d.module}] ${d.fileName} v${d.version}${d.retired ? ' (retired)' : ''}\n` +
                  `  ${d.passages} passages, ${d.language}, added ${d.addedAt.slice(0, 10)} by ${d.addedBy ?? 'the admin command'}`,
              )
              .join('\n')
          : `${company.name} has no library documents.`,
      );
    return;
  }
  throw new LibraryUsageError(sub ? `Unknown library command "${sub}"` : 'Give a library command');
}

import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BudgetBody } from '@contract/admin';
import { ModuleKey } from '@contract/modules';
import type { StarterPatch } from '@contract/starters';
import type { Database, Db } from '../db/connect';
import type { Starter } from '../db/schema';
import { validateModelString, type ModelConfig } from '../analyst/registry';
import type { SamlSettingsDto } from '@contract/sso';
import { removeSaml, samlDto, setSaml } from '../accounts/saml-settings';
import { samlForCompany } from '../accounts/saml.repo';
import { parse } from '../lib/validate';
import { AppError, NotFoundError, ValidationError } from '../lib/errors';
import { checkLine, checkModels, providerLines } from './models';
import { newScimToken, removeSso, setSso, showSso, ssoLines, type SsoSecrets } from './sso';
import {
  addCompany,
  findCompany,
  listCompanies,
  sharedDomains,
  updateCompany,
  type CompanyPatch,
  type CompanyWithDomains,
} from './companies';
import { LIBRARY_USAGE, LibraryUsageError, libraryCommand } from '../library/library.cli';
import type { Embedder } from '../library/embeddings';
import { grantRole } from './members';
import { RETENTION_USAGE, RetentionUsageError, retentionCommand } from './retention.cli';
import { budgetScopeLabel, listBudgets, setBudget } from './budgets';
import {
  addStarter,
  editStarter,
  formatFromFileName,
  importStarters,
  listStartersFor,
  removeStarter,
} from './starters';

export const USAGE = `Atrium admin: manage operators, companies and starter templates.

Usage: npm run admin -- <command> [options]

Roles
  operators add <email>                 make a user an operator (runs the whole deployment)
  operators remove <email>              make an operator a member again
  companies admins add "<company>" <email>
                                        make a user an admin of that company (their address
                                        must be on one of its domains)
  companies admins remove "<company>" <email>

Companies
  companies list [--json]
  companies add --name <name> [--domains <a.com,b.com>] [--allowed-models <m1,m2>]
                [--brand-hub-model <model>] [--governance-model <model>]
                [--talent-intelligence-model <model>]
  companies update <id|name> [--name <name>] [--domains <a.com,b.com>]
                [--allowed-models <m1,m2>]
                [--brand-hub-model <model>] [--governance-model <model>]
                [--talent-intelligence-model <model>]

Starter templates
  starters list [--module <module>] [--json]
  starters add --module <module> --task-type <type> --name <name> --description <text>
  starters edit <id> [--module <module>] [--task-type <type>] [--name <name>] [--description <text>]
  starters remove <id>
  starters import <file.json|file.csv> [--dry-run]

Single sign-on (OpenID Connect)
  sso set <company> --issuer <url> --client-id <id> --client-secret-env <VARIABLE>
                [--scopes "openid email profile"] [--enforce | --no-enforce]
                       the secret is read from the variable named, stored encrypted
                       with SECRETS_KEY; options left out keep their value
  sso show <company>   the settings (never the secret) and the URIs to register
  sso remove <company>

Single sign-on (SAML 2.0)
  saml set <company> (--metadata-url <url> | --metadata-file <file>) [--enforce | --no-enforce]
                       the IdP's metadata (entity ID, SSO URL, signing certificate);
                       setting SAML replaces the company's OpenID Connect settings
  saml show <company>  the IdP and the SP metadata URL to give it
  saml remove <company>

SCIM provisioning
  scim token <company> a new bearer token for <APP_URL>/scim/v2, shown once; the
                       previous token stops working

Budgets (monthly; tokens in and out, or turns)
  budgets set "<company>" [--module <key>] [--user <email>] (--tokens N | --turns N)
                       sets the limit of the company, of one module, or of one person
  budgets show "<company>"
                       each limit with what it has used this month

${RETENTION_USAGE}

Model providers
  providers list       the providers a model may name (never a key: only its variable)
  models check [--timeout <seconds>]
                       one tiny request per model the companies use; prints what answered

${LIBRARY_USAGE}

  help                 this text

Models are "builtin" (the offline analyst) or "<provider>:<model>": openai:<model> for
OPENAI_BASE_URL, or a provider named in MODEL_PROVIDERS, e.g. azure-eu:gpt-4o.
Modules are brand-hub, governance, talent-intelligence.
--domains replaces the company's list; --domains "" clears it. Sign-up is open to the domains
some company owns; companies of a group may share a domain (their people choose in Settings).
--allowed-models lists the models the company's admins may choose in the console.
Import files: JSON, a list of {module, taskType, name, description}; CSV, a header line
naming module, taskType, name, description, then one starter per line. A starter whose
module and name exist is updated, others are added; one bad row imports nothing.
The database is the one the server uses: DATABASE_URL, or PGlite in DATA_DIR.`;

export interface AdminIo {
  db: Db;
  /** The database itself (its kind): `retention purge` takes its lock on PostgreSQL. */
  database?: Database;
  /** SECRETS_KEY and the variables an operator names (sso set --client-secret-env). */
  secrets?: SsoSecrets;
  /** The server's address, for the URIs `sso show` prints. */
  appUrl?: string;
  /** The model configuration: company models are checked against its providers. */
  models?: ModelConfig;
  /** LIBRARY_QUOTA_MB in bytes, for `library add`. */
  libraryQuotaBytes?: number;
  /** The library's embedding endpoint (ADR 0026), for `library add`. */
  embedder?: Embedder;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Exit codes: 0 done, 1 refused (bad value, not found, conflict), 2 bad usage. */
export type ExitCode = 0 | 1 | 2;

class UsageError extends Error {}

const COMPANY_OPTIONS = {
  name: { type: 'string' },
  domains: { type: 'string' },
  'allowed-models': { type: 'string' },
  'brand-hub-model': { type: 'string' },
  'governance-model': { type: 'string' },
  'talent-intelligence-model': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const STARTER_OPTIONS = {
  module: { type: 'string' },
  'task-type': { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
} as const;

function splitList(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return v
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

function dropUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function companyLine(c: CompanyWithDomains): string {
  return [
    `#${c.id} ${c.name}${c.retiredAt ? ' (retired)' : ''}`,
    `  domains: ${c.emailDomains.length ? c.emailDomains.join(', ') : '(none)'}`,
    ...(c.allowedModels.length ? [`  allowed models: ${c.allowedModels.join(', ')}`] : []),
    `  models: brand-hub=${c.brandHubModel} governance=${c.governanceModel} talent-intelligence=${c.talentIntelligenceModel}`,
  ].join('\n');
}

function starterLine(s: Starter): string {
  return `#${s.id} [${s.module}] ${s.taskType} / ${s.name}\n  ${s.description}`;
}

/** A group's own options plus words (an id, a file); an unknown option is a usage error. */
function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
) {
  return parseArgs({ args, options, allowPositionals: true, strict: true });
}

/** Prints a `list` command's rows: JSON when asked, else one block per row or the empty text. */
function printList<T>(
  io: AdminIo,
  json: boolean | undefined,
  rows: T[],
  line: (row: T) => string,
  empty: string,
) {
  if (json) io.out(JSON.stringify(rows, null, 2));
  else io.out(rows.length ? rows.map(line).join('\n') : empty);
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`Give exactly one ${what}`);
  return positionals[0]!;
}

async function companiesCommand(
  sub: string | undefined,
  args: string[],
  io: AdminIo,
): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, COMPANY_OPTIONS);
  const fields = dropUndefined({
    name: values.name,
    emailDomains: splitList(values.domains),
    allowedModels: splitList(values['allowed-models']),
    brandHubModel: values['brand-hub-model'],
    governanceModel: values['governance-model'],
    talentIntelligenceModel: values['talent-intelligence-model'],
  });
  // A model whose provider this configuration lacks would stop the server at start-up.
  if (io.models) {
    for (const model of [
      fields.brandHubModel,
      fields.governanceModel,
      fields.talentIntelligenceModel,
      ...(fields.allowedModels ?? []),
    ]) {
      const problem = model === undefined ? null : validateModelString(model, io.models);
      if (problem) throw new ValidationError(problem);
    }
  }
  const warn = async (c: CompanyWithDomains) => {
    for (const { domain, company } of await sharedDomains(io.db, c)) {
      io.err(
        `note: ${domain} is shared with ${company}; its people choose between them in Settings.`,
      );
    }
  };
  switch (sub) {
    case 'admins':
      return adminsCommand(positionals, io);
    case 'list': {
      if (positionals.length > 0) throw new UsageError('companies list takes no arguments');
      printList(io, values.json, await listCompanies(io.db), companyLine, 'No companies.');
      return;
    }
    case 'add': {
      if (positionals.length > 0)
        throw new UsageError('companies add takes options only, e.g. --name "Acme"');
      if (fields.name === undefined) throw new UsageError('companies add needs --name');
      const c = await addCompany(io.db, { ...fields, name: fields.name });
      io.out(`Added company:\n${companyLine(c)}`);
      await warn(c);
      return;
    }
    case 'update': {
      const ref = one(positionals, 'company id or name');
      const c = await updateCompany(io.db, ref, fields as CompanyPatch);
      io.out(`Updated company:\n${companyLine(c)}`);
      await warn(c);
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown companies command "${sub}"` : 'Give a companies command');
  }
}

/** companies admins add|remove "<company>" <email> */
async function adminsCommand(positionals: string[], io: AdminIo): Promise<void> {
  const [verb, ref, email, ...extra] = positionals;
  if ((verb !== 'add' && verb !== 'remove') || !ref || !email || extra.length)
    throw new UsageError('Use: companies admins add|remove "<company>" <email>');
  const company = await findCompany(io.db, ref);
  const user = await grantRole(io.db, {
    email,
    role: verb === 'add' ? 'admin' : 'member',
    company,
  });
  io.out(
    verb === 'add'
      ? `${user.email} is now an admin of ${company.name}.`
      : `${user.email} is no longer an admin of ${company.name}.`,
  );
}

/** operators add|remove <email> */
async function operatorsCommand(sub: string | undefined, args: string[], io: AdminIo) {
  if ((sub !== 'add' && sub !== 'remove') || args.length !== 1)
    throw new UsageError('Use: operators add|remove <email>');
  const user = await grantRole(io.db, {
    email: args[0]!,
    role: sub === 'add' ? 'operator' : 'member',
  });
  io.out(
    sub === 'add' ? `${user.email} is now an operator.` : `${user.email} is no longer an operator.`,
  );
}

async function modelsCommand(
  sub: string | undefined,
  args: string[],
  io: AdminIo,
): Promise<ExitCode> {
  if (sub !== 'check') throw new UsageError('Use: models check [--timeout <seconds>]');
  const { values, positionals } = parseCommandArgs(args, { timeout: { type: 'string' } });
  if (positionals.length) throw new UsageError('models check takes no arguments');
  const seconds = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UsageError('--timeout must be a number of seconds from 1 to 600');
  if (!io.models) throw new UsageError('models check needs the server configuration');
  const checks = await checkModels(io.db, io.models, seconds * 1000);
  for (const c of checks) io.out(checkLine(c));
  const failed = checks.filter((c) => !c.ok).length;
  io.out(
    failed
      ? `${failed} of ${checks.length} models did not answer.`
      : `All ${checks.length} models answered.`,
  );
  return failed ? 1 : 0;
}

async function startersCommand(
  sub: string | undefined,
  args: string[],
  io: AdminIo,
): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, STARTER_OPTIONS);
  const fields = dropUndefined({
    module: values.module,
    taskType: values['task-type'],
    name: values.name,
    description: values.description,
  });
  switch (sub) {
    case 'list': {
      if (positionals.length > 0) throw new UsageError('starters list takes no arguments');
      let module: ModuleKey | undefined;
      if (values.module !== undefined) {
        const parsed = ModuleKey.safeParse(values.module);
        if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message);
        module = parsed.data;
      }
      printList(io, values.json, await listStartersFor(io.db, module), starterLine, 'No starters.');
      return;
    }
    case 'add': {
      if (positionals.length > 0)
        throw new UsageError('starters add takes options only, e.g. --name "..."');
      const s = await addStarter(io.db, fields as Parameters<typeof addStarter>[1]);
      io.out(`Added starter:\n${starterLine(s)}`);
      return;
    }
    case 'edit': {
      const s = await editStarter(io.db, one(positionals, 'starter id'), fields as StarterPatch);
      io.out(`Updated starter:\n${starterLine(s)}`);
      return;
    }
    case 'remove': {
      const s = await removeStarter(io.db, one(positionals, 'starter id'));
      io.out(`Removed starter #${s.id} [${s.module}] ${s.name}`);
      return;
    }
    case 'import': {
      const file = one(positionals, 'file');
      const format = formatFromFileName(file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new ValidationError(
          `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
      }
      const dryRun = values['dry-run'] === true;
      const r = await importStarters(io.db, text, format, { dryRun });
      io.out(
        `${dryRun ? 'Dry run, nothing written: would add' : 'Imported: added'} ${r.created}, ` +
          `${dryRun ? 'update' : 'updated'} ${r.updated}, unchanged ${r.unchanged}.`,
      );
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown starters command "${sub}"` : 'Give a starters command');
  }
}

const SSO_OPTIONS = {
  issuer: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  scopes: { type: 'string' },
  enforce: { type: 'boolean' },
  'no-enforce': { type: 'boolean' },
} as const;

async function ssoCommand(sub: string | undefined, args: string[], io: AdminIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, SSO_OPTIONS);
  const ref = () => one(positionals, 'company id or name');
  const now = new Date();
  switch (sub) {
    case 'set': {
      if (values.enforce && values['no-enforce'])
        throw new UsageError('Give --enforce or --no-enforce, not both');
      const { companyName, domains, sso } = await setSso(
        io.db,
        ref(),
        {
          issuer: values.issuer,
          clientId: values['client-id'],
          clientSecretEnv: values['client-secret-env'],
          scopes: values.scopes,
          enforce: values.enforce ? true : values['no-enforce'] ? false : undefined,
        },
        io.secrets ?? { key: undefined, fromEnv: () => undefined },
        now,
      );
      io.out(
        `Single sign-on set.\n${ssoLines(companyName, domains, sso, io.appUrl ?? '').join('\n')}`,
      );
      return;
    }
    case 'show': {
      const { companyName, domains, sso, adminGroups } = await showSso(io.db, ref());
      io.out(ssoLines(companyName, domains, sso, io.appUrl ?? '', adminGroups).join('\n'));
      return;
    }
    case 'remove': {
      const name = await removeSso(io.db, ref(), now);
      io.out(`Single sign-on removed for ${name}: its staff sign in with password and code again.`);
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown sso command "${sub}"` : 'Give an sso command');
  }
}

const BUDGET_OPTIONS = {
  module: { type: 'string' },
  user: { type: 'string' },
  tokens: { type: 'string' },
  turns: { type: 'string' },
} as const;

async function budgetsCommand(sub: string | undefined, args: string[], io: AdminIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, BUDGET_OPTIONS);
  const company = await findCompany(io.db, one(positionals, 'company id or name'));
  const now = new Date();
  switch (sub) {
    case 'set': {
      if ((values.tokens === undefined) === (values.turns === undefined))
        throw new UsageError('Give --tokens N or --turns N');
      const unit = values.tokens !== undefined ? 'tokens' : 'turns';
      const raw = (values.tokens ?? values.turns)!;
      if (!/^\d+$/.test(raw)) throw new ValidationError('The limit is a whole number');
      const body = parse(BudgetBody, {
        module: values.module ?? null,
        email: values.user ?? null,
        unit,
        limit: Number(raw),
      });
      await setBudget(io.db, company.id, body, now);
      io.out(
        `Budget set for ${company.name} (${budgetScopeLabel({ module: body.module, email: body.email })}): ${body.limit} ${body.unit} a month.`,
      );
      return;
    }
    case 'show': {
      const { resetsOn, budgets } = await listBudgets(io.db, company.id, now);
      if (!budgets.length) {
        io.out(`${company.name} has no budget.`);
        return;
      }
      io.out(
        [
          `${company.name}: monthly budgets (they reset on ${resetsOn})`,
          ...budgets.map(
            (b) =>
              `#${b.id} ${budgetScopeLabel({ module: b.module, email: b.userEmail })}: ${b.used} of ${b.limit} ${b.unit} used`,
          ),
        ].join('\n'),
      );
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown budgets command "${sub}"` : 'Give a budgets command');
  }
}

const SAML_OPTIONS = {
  'metadata-url': { type: 'string' },
  'metadata-file': { type: 'string' },
  enforce: { type: 'boolean' },
  'no-enforce': { type: 'boolean' },
} as const;

async function samlCommand(sub: string | undefined, args: string[], io: AdminIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, SAML_OPTIONS);
  const company = async () => findCompany(io.db, one(positionals, 'company id or name'));
  const clock = { now: () => new Date() };
  const actor = { event: {}, by: 'admin command' };
  const appUrl = io.appUrl ?? '';
  switch (sub) {
    case 'set': {
      if (values.enforce && values['no-enforce'])
        throw new UsageError('Give --enforce or --no-enforce, not both');
      const url = values['metadata-url'];
      const file = values['metadata-file'];
      if (url && file) throw new UsageError('Give --metadata-url or --metadata-file, not both');
      let metadataXml: string | undefined;
      if (file) {
        try {
          metadataXml = await readFile(file, 'utf8');
        } catch {
          throw new ValidationError(`Cannot read ${file}`);
        }
      }
      const c = await company();
      const saml = await setSaml(
        io.db,
        clock,
        c,
        {
          ...(url ? { metadataUrl: url } : {}),
          ...(metadataXml !== undefined ? { metadataXml } : {}),
          ...(values.enforce
            ? { enforced: true }
            : values['no-enforce']
              ? { enforced: false }
              : {}),
        },
        actor,
      );
      io.out(`SAML single sign-on set.\n${samlLines(c, samlDto(appUrl, c.id, saml)).join('\n')}`);
      return;
    }
    case 'show': {
      const c = await company();
      const found = await samlForCompany(c.id, io.db);
      if (!found) throw new NotFoundError(`${c.name} has no SAML single sign-on`);
      io.out(samlLines(c, samlDto(appUrl, c.id, found.saml)).join('\n'));
      return;
    }
    case 'remove': {
      const c = await company();
      await removeSaml(io.db, clock, c, actor);
      io.out(
        `SAML single sign-on removed for ${c.name}: its staff sign in with password and code again.`,
      );
      return;
    }
    default:
      throw new UsageError(sub ? `Unknown saml command "${sub}"` : 'Give a saml command');
  }
}

function samlLines(c: { name: string; emailDomains: string[] }, dto: SamlSettingsDto): string[] {
  return [
    `${c.name}: single sign-on (SAML 2.0)`,
    `  IdP entity ID: ${dto.idpEntityId}`,
    `  IdP single sign-on URL: ${dto.ssoUrl}`,
    ...(dto.metadataUrl ? [`  read from: ${dto.metadataUrl}`] : []),
    ...dto.certificates.map((x) => `  signing certificate: ${x.subject}, valid until ${x.validTo}`),
    `  enforced: ${dto.enforced ? `yes (no password sign-in for ${c.emailDomains.join(', ')})` : 'no (password sign-in stays)'}`,
    `  SP metadata URL to give the IdP: ${dto.spMetadataUrl}`,
    `  SP entity ID (audience): ${dto.spEntityId}`,
    `  ACS URL (recipient): ${dto.acsUrl}`,
  ];
}

/** Runs one admin command; prints what it did or a clear error, and returns the exit code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<ExitCode> {
  const [group, sub, ...rest] = argv;
  try {
    switch (group) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return group === undefined ? 2 : 0;
      case 'companies':
        await companiesCommand(sub, rest, io);
        return 0;
      case 'starters':
        await startersCommand(sub, rest, io);
        return 0;
      case 'operators':
        await operatorsCommand(sub, rest, io);
        return 0;
      case 'sso':
        await ssoCommand(sub, rest, io);
        return 0;
      case 'budgets':
        await budgetsCommand(sub, rest, io);
        return 0;
      case 'saml':
        await samlCommand(sub, rest, io);
        return 0;
      case 'retention':
        await retentionCommand(sub, rest, io);
        return 0;
      case 'scim': {
        if (sub !== 'token') throw new UsageError('Use: scim token <company>');
        const { positionals } = parseCommandArgs(rest, {});
        const { companyName, token } = await newScimToken(
          io.db,
          one(positionals, 'company id or name'),
          new Date(),
        );
        io.out(
          [
            `SCIM token for ${companyName} (shown once; store it in the identity provider now):`,
            token,
            `Base URL: ${io.appUrl ?? '<APP_URL>'}/scim/v2   Authentication: Bearer token`,
          ].join('\n'),
        );
        return 0;
      }
      case 'library':
        await libraryCommand(sub, rest, io);
        return 0;
      case 'providers':
        if (sub !== 'list' || rest.length) throw new UsageError('Use: providers list');
        if (!io.models) throw new UsageError('providers list needs the server configuration');
        for (const line of providerLines(io.models)) io.out(line);
        return 0;
      case 'models':
        return await modelsCommand(sub, rest, io);
      default:
        throw new UsageError(`Unknown command "${group}"`);
    }
  } catch (err) {
    // parseArgs reports unknown or malformed options as TypeErrors carrying an ERR_PARSE_ARGS_* code.
    const parseArgsError = (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
    if (
      err instanceof UsageError ||
      err instanceof LibraryUsageError ||
      err instanceof RetentionUsageError ||
      parseArgsError
    ) {
      io.err(`error: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof AppError) {
      // Name the field of a one-field error; list every field when several are wrong.
      // "_" is where parse() files issues about the whole value, which have no field name.
      const fields = Object.entries(err.fields ?? {}).filter(([f]) => f !== '_');
      const lead =
        fields.length === 1 && !err.message.includes('\n')
          ? `${fields[0]![0]}: ${err.message}`
          : err.message;
      const fieldLines = fields.length > 1 ? fields.map(([f, m]) => `  ${f}: ${m}`) : [];
      io.err([`error: ${lead}`, ...fieldLines].join('\n'));
      return 1;
    }
    throw err;
  }
}

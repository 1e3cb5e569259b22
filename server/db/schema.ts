import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

// Entities of spec section 3. Column limits are the spec's (section 9); timestamps carry a zone.

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, pg a Buffer: normalise so callers see one type.
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * jsonb whose value is handed back exactly as stored. Drizzle's own jsonb parses any string it
 * reads once more, so a message whose plain-text content happens to be JSON (a report) would
 * come back as an object; both drivers already decode jsonb themselves.
 */
const jsonValue = customType<{ data: unknown; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (v) => JSON.stringify(v),
  fromDriver: (v) => v,
});

/** PostgreSQL full-text document (search); the same type on PGlite. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// The references most rows carry: to the company, the user or the chat that owns them, which
// take the row with them when they go.
const companyRef = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });
const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
const chatRef = () =>
  uuid('chat_id')
    .notNull()
    .references(() => chats.id, { onDelete: 'cascade' });

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull().unique(),
  brandHubModel: varchar('brand_hub_model', { length: 255 }).notNull().default('builtin'),
  governanceModel: varchar('governance_model', { length: 255 }).notNull().default('builtin'),
  talentIntelligenceModel: varchar('talent_intelligence_model', { length: 255 })
    .notNull()
    .default('builtin'),
  /**
   * Models the company's admins may choose for a module (besides builtin), set by an operator;
   * see docs/decisions/0021-company-models-and-starters.md.
   */
  allowedModels: text('allowed_models')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** Set when an operator retires the company: its domains no longer admit anyone. */
  retiredAt: timestamp('retired_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type Company = typeof companies.$inferSelect;

/**
 * The e-mail domains a company owns: sign-up is open to the domains some company owns, and a
 * user may belong to any company owning their domain (a group and its subsidiaries share one).
 */
export const companyDomains = pgTable(
  'company_domains',
  {
    companyId: companyRef(),
    domain: varchar('domain', { length: 253 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.domain] }),
    index('company_domains_domain_idx').on(t.domain),
  ],
);
export type CompanyDomain = typeof companyDomains.$inferSelect;

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stored lower-cased, so uniqueness is case-insensitive. */
  email: varchar('email', { length: 255 }).notNull().unique(),
  /** argon2id hash, never the password. */
  password: text('password').notNull(),
  firstName: varchar('first_name', { length: 100 }).notNull(),
  lastName: varchar('last_name', { length: 100 }).notNull(),
  phone: varchar('phone', { length: 40 }),
  isEmailVerified: boolean('is_email_verified').notNull().default(false),
  companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
  /** member | admin (of companyId) | operator (the whole deployment). */
  role: varchar('role', { length: 16 }).notNull().default('member'),
  /** Set while a company admin has disabled the account: no sign-in, no session. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type User = typeof users.$inferSelect;

/** An address a company admin invited; accepted when that address signs up. */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    companyId: companyRef(),
    email: varchar('email', { length: 255 }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** SHA-256 of the link's token (ADR 0014); a resend replaces it. Null for older rows. */
    tokenHash: varchar('token_hash', { length: 64 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_company_email_idx').on(t.companyId, t.email),
    uniqueIndex('invitations_token_hash_idx').on(t.tokenHash),
  ],
);
export type Invitation = typeof invitations.$inferSelect;

export const sessions = pgTable(
  'session',
  {
    /** SHA-256 of the cookie's token: a leaked table does not yield usable cookies. */
    sid: varchar('sid', { length: 128 }).primaryKey(),
    sess: jsonb('sess').notNull(),
    /** Idle expiry; the absolute limit is kept inside sess. */
    expire: timestamp('expire', { withTimezone: true }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_expire_idx').on(t.expire), index('session_user_idx').on(t.userId)],
);
export type SessionRow = typeof sessions.$inferSelect;

export const emailVerificationTokens = pgTable('email_verification_tokens', {
  id: serial('id').primaryKey(),
  userId: userRef(),
  /** SHA-256 of the token sent in the link. */
  token: varchar('token', { length: 128 }).notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

export const otpTokens = pgTable(
  'otp_tokens',
  {
    id: serial('id').primaryKey(),
    userId: userRef(),
    /** Keyed hash of the six-digit code. */
    token: varchar('token', { length: 128 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    isUsed: boolean('is_used').notNull().default(false),
    /** Wrong guesses so far; the code is void after the limit. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('otp_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable('password_reset_tokens', {
  id: serial('id').primaryKey(),
  userId: userRef(),
  token: varchar('token', { length: 128 }).notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  isUsed: boolean('is_used').notNull().default(false),
  createdAt: createdAt(),
});

export const starters = pgTable(
  'starters',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    description: text('description').notNull(),
    module: varchar('module', { length: 100 }).notNull(),
    taskType: varchar('task_type', { length: 100 }).notNull(),
    /** The company whose own starter this is; null for the global library. */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    /** Retired starters leave the module pages but stay for the record. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One name per module in the global library, and per module in each company's own.
    uniqueIndex('starters_scope_module_name_idx').on(
      sql`coalesce(${t.companyId}, 0)`,
      t.module,
      t.name,
    ),
  ],
);
export type Starter = typeof starters.$inferSelect;

export const chats = pgTable(
  'chats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userRef(),
    title: varchar('title', { length: 255 }).notNull(),
    module: varchar('module', { length: 100 }).notNull(),
    memoryId: varchar('memory_id', { length: 255 }),
    sessionId: varchar('session_id', { length: 255 }),
    /**
     * Bumped on every change to the chat or its messages: the cheap ETag for history polls,
     * read without touching the messages.
     */
    version: integer('version').notNull().default(1),
    /**
     * Set when the user deletes the chat: it disappears at once and can be restored for a short
     * while (undo); a sweep then removes it with its messages, files and attachments.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('chats_user_module_idx').on(t.userId, t.module, t.updatedAt),
    index('chats_user_updated_idx').on(t.userId, t.updatedAt),
    index('chats_deleted_idx').on(t.deletedAt),
    index('chats_title_search_idx').using('gin', sql`to_tsvector('atrium_search', ${t.title})`),
  ],
);
export type Chat = typeof chats.$inferSelect;

/**
 * The chat's messages (the spec's Chat.messages list), one row each so that appending or
 * finishing a reply does not rewrite the whole history; the API composes the list in order.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: chatRef(),
    /** Position in the chat, from 1. */
    seq: integer('seq').notNull(),
    /** The client's id for the send that created it: a retried send stores one message. */
    clientId: varchar('client_id', { length: 64 }),
    role: varchar('role', { length: 16 }).notNull(),
    /** Plain text, or a list of text parts and file parts (files by attachment id, not bytes). */
    content: jsonValue('content').notNull(),
    structuredResponse: jsonValue('structured_response'),
    /** complete | loading | error | stopped */
    status: varchar('status', { length: 16 }).notNull().default('complete'),
    error: text('error'),
    /** The model that answered (assistant messages), e.g. builtin or openai:gpt-4.1-mini. */
    model: varchar('model', { length: 255 }),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    /** Set when the user edited and resent this message. */
    editedAt: timestamp('edited_at', { withTimezone: true }),
    /**
     * What a person reads in the message (its text, or the report's title, texts and next steps,
     * not the raw JSON): written with the content, the source of the search document below.
     */
    searchText: text('search_text'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('atrium_search', coalesce(search_text, ''))`,
    ),
  },
  (t) => [
    uniqueIndex('chat_messages_chat_seq_idx').on(t.chatId, t.seq),
    uniqueIndex('chat_messages_chat_client_idx').on(t.chatId, t.clientId),
    index('chat_messages_loading_idx').on(t.status),
    index('chat_messages_search_idx').using('gin', t.searchVector),
  ],
);
export type ChatMessage = typeof chatMessages.$inferSelect;

/**
 * Earlier versions of a regenerated reply: the reply in chat_messages is the newest one, these are
 * the ones it replaced at the same position (seq), kept so the user can read them again ("1 of 2").
 */
export const replyVersions = pgTable(
  'reply_versions',
  {
    /** The replaced message's own id. */
    id: uuid('id').primaryKey(),
    chatId: chatRef(),
    seq: integer('seq').notNull(),
    content: jsonValue('content').notNull(),
    structuredResponse: jsonValue('structured_response'),
    status: varchar('status', { length: 16 }).notNull(),
    error: text('error'),
    model: varchar('model', { length: 255 }),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('reply_versions_chat_seq_idx').on(t.chatId, t.seq)],
);
export type ReplyVersion = typeof replyVersions.$inferSelect;

export const messageAttachments = pgTable(
  'message_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: chatRef(),
    userId: userRef(),
    messageId: uuid('message_id').references(() => chatMessages.id, { onDelete: 'cascade' }),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    mimeType: varchar('mime_type', { length: 255 }).notNull().default('application/octet-stream'),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('message_attachments_message_idx').on(t.messageId)],
);
export type MessageAttachment = typeof messageAttachments.$inferSelect;

export const savedFiles = pgTable(
  'saved_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    fileContent: text('file_content').notNull(),
    chatId: chatRef(),
    userId: userRef(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('saved_files_chat_name_idx').on(t.chatId, t.fileName)],
);
export type SavedFile = typeof savedFiles.$inferSelect;

export const logs = pgTable(
  'logs',
  {
    id: serial('id').primaryKey(),
    chatId: uuid('chat_id').references(() => chats.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    requestBody: jsonb('request_body').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseTimeMs: integer('response_time_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('logs_chat_idx').on(t.chatId)],
);

/**
 * The audit trail: append-only (the app's PostgreSQL role should hold INSERT and SELECT only, see
 * the README), and tamper-evident: each row's hash covers its content and the hash of the row
 * before it in the same company's chain (company_id null is the deployment's own chain). No
 * foreign keys: a row must never change when a user or company goes. See
 * docs/decisions/0022-audit-log-hash-chain.md.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    actorId: uuid('actor_id'),
    actorEmail: varchar('actor_email', { length: 255 }),
    action: varchar('action', { length: 64 }).notNull(),
    target: varchar('target', { length: 255 }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    detail: varchar('detail', { length: 500 }),
    prevHash: varchar('prev_hash', { length: 64 }),
    hash: varchar('hash', { length: 64 }).notNull(),
  },
  (t) => [index('audit_log_company_idx').on(t.companyId, t.id), index('audit_log_at_idx').on(t.at)],
);
export type AuditRow = typeof auditLog.$inferSelect;

/**
 * One row per turn that wrote a Log row: who used which model for what, its tokens (0 for the
 * builtin, or when the model server reports none) and its outcome (the Log status). Kept apart
 * from the Log, whose request bodies are large; see docs/decisions/0038-usage-recording.md.
 */
export const turnUsage = pgTable(
  'turn_usage',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for a user without a company (the builtin only). */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    module: varchar('module', { length: 100 }).notNull(),
    /** Kept when the person goes: the company's figures must not change. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    model: varchar('model', { length: 255 }).notNull(),
    provider: varchar('provider', { length: 100 }).notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** The Log row's response_status: 200 complete, 499 stopped, anything else failed. */
    status: integer('status').notNull(),
    starterId: integer('starter_id').references(() => starters.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('turn_usage_company_created_idx').on(t.companyId, t.createdAt)],
);

/** The key of the daily roll-ups: a company's day, module, model and starter. */
const usageKey = () => ({
  day: date('day').notNull(),
  companyId: companyRef(),
  module: varchar('module', { length: 100 }).notNull(),
  model: varchar('model', { length: 255 }).notNull(),
  starterId: integer('starter_id').notNull().default(0),
});

/**
 * The daily roll-up the Usage page reads, maintained as turns close (one upsert per turn), so
 * its queries read days, not turns. starter_id 0 is "no starter" (a key column cannot be null).
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    ...usageKey(),
    turns: integer('turns').notNull(),
    errors: integer('errors').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.module, t.model, t.starterId] })],
);

/**
 * Who was active on a day, per roll-up key: active users over any range is a count of distinct
 * people here (a sum of daily counts would count a person once per day).
 */
export const usageDailyUsers = pgTable(
  'usage_daily_users',
  {
    ...usageKey(),
    userId: uuid('user_id').notNull(),
    turns: integer('turns').notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.companyId, t.day, t.module, t.model, t.starterId, t.userId],
    }),
  ],
);

/**
 * Who was active on a day in a company, whatever the module, model or starter: "by day" and
 * active people over a range count these rows (a person's day is one row here, against one per
 * module × model × starter in usage_daily_users). See docs/decisions/0030-usage-people-by-day.md.
 */
export const usageDailyPeople = pgTable(
  'usage_daily_people',
  {
    day: date('day').notNull(),
    companyId: companyRef(),
    userId: uuid('user_id').notNull(),
    turns: integer('turns').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.userId] })],
);

/** What a model costs, set by the operator: US dollars per million tokens, in and out. */
export const modelPrices = pgTable('model_prices', {
  model: varchar('model', { length: 255 }).primaryKey(),
  inputPerMillion: numeric('input_per_million', {
    precision: 12,
    scale: 4,
    mode: 'number',
  }).notNull(),
  outputPerMillion: numeric('output_per_million', {
    precision: 12,
    scale: 4,
    mode: 'number',
  }).notNull(),
  updatedAt: updatedAt(),
});

/**
 * A company's own OpenID Connect identity provider (ADR 0034). The client secret is stored only
 * encrypted (AES-256-GCM with SECRETS_KEY, bound to the company: lib/secrets.ts).
 */
export const companySso = pgTable('company_sso', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  issuer: varchar('issuer', { length: 500 }).notNull(),
  clientId: varchar('client_id', { length: 255 }).notNull(),
  clientSecretEncrypted: text('client_secret_encrypted').notNull(),
  scopes: varchar('scopes', { length: 255 }).notNull().default('openid email profile'),
  /** The company's domains sign in through the provider only (no password, no code). */
  enforced: boolean('enforced').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type CompanySso = typeof companySso.$inferSelect;

/**
 * A sign-in sent to the provider and not yet back: looked up by the hash of its state, deleted
 * when the callback takes it (so a replayed callback finds nothing).
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    stateHash: varchar('state_hash', { length: 128 }).primaryKey(),
    companyId: companyRef(),
    nonce: varchar('nonce', { length: 128 }).notNull(),
    codeVerifier: varchar('code_verifier', { length: 128 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sso_logins_expires_idx').on(t.expiresAt)],
);

/** Which provider account (its `sub`) is which user: the e-mail may change, the subject does not. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    companyId: companyRef(),
    subject: varchar('subject', { length: 255 }).notNull(),
    userId: userRef(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('sso_identities_company_subject_idx').on(t.companyId, t.subject),
    index('sso_identities_user_idx').on(t.userId),
  ],
);

/**
 * A company's own SAML 2.0 identity provider (ADR 0075), beside or instead of OpenID Connect
 * (one provider per company: setting one removes the other). Certificates are public: stored as
 * they came, one PEM block each.
 */
export const companySaml = pgTable('company_saml', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  idpEntityId: varchar('idp_entity_id', { length: 500 }).notNull(),
  ssoUrl: varchar('sso_url', { length: 1000 }).notNull(),
  /** The IdP's signing certificates (PEM, one or more during a rollover). */
  certificates: text('certificates').array().notNull(),
  /** Where the settings were read from, when from a metadata URL (read again by `saml set`). */
  metadataUrl: varchar('metadata_url', { length: 1000 }),
  enforced: boolean('enforced').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type CompanySaml = typeof companySaml.$inferSelect;

/**
 * An AuthnRequest sent to the IdP and not yet answered: its ID is the answer's InResponseTo.
 * Taken (deleted) by the first answer, so a replayed assertion finds nothing (ADR 0075).
 */
export const samlRequests = pgTable(
  'saml_requests',
  {
    id: varchar('id', { length: 128 }).primaryKey(),
    companyId: companyRef(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('saml_requests_expires_idx').on(t.expiresAt)],
);

/**
 * The groups of the company's identity provider or directory whose members are the company's
 * admins (ADR 0078): an OIDC `groups` claim value, a SAML group attribute value or a SCIM group's
 * displayName. A company may name several.
 */
export const companyAdminGroups = pgTable(
  'company_admin_groups',
  {
    companyId: companyRef(),
    groupName: varchar('group_name', { length: 255 }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.groupName] })],
);

/** A company's SCIM bearer token (ADR 0037): only its SHA-256 is kept; shown once when made. */
export const scimTokens = pgTable('scim_tokens', {
  id: serial('id').primaryKey(),
  companyId: companyRef(),
  tokenHash: varchar('token_hash', { length: 128 }).notNull().unique(),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/**
 * What SCIM knows of a user beyond the user row: the provisioning client's id for them, and when
 * it deleted them (the user stays, disabled, with their chats; SCIM no longer shows them).
 */
export const scimUsers = pgTable('scim_users', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  companyId: companyRef(),
  externalId: varchar('external_id', { length: 255 }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A company's groups as its directory sends them over SCIM (ADR 0037). */
export const scimGroups = pgTable(
  'scim_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: companyRef(),
    displayName: varchar('display_name', { length: 255 }).notNull(),
    externalId: varchar('external_id', { length: 255 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('scim_groups_company_name_idx').on(t.companyId, t.displayName)],
);
export type ScimGroup = typeof scimGroups.$inferSelect;

export const scimGroupMembers = pgTable(
  'scim_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => scimGroups.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [
    uniqueIndex('scim_group_members_idx').on(t.groupId, t.userId),
    index('scim_group_members_user_idx').on(t.userId),
  ],
);

/**
 * A monthly limit (ADR 0070): per company (module '' and no user), per company and module, or per
 * person (with or without a module). Tokens are input plus output; turns count every logged turn.
 */
export const budgets = pgTable(
  'budgets',
  {
    id: serial('id').primaryKey(),
    companyId: companyRef(),
    /** '' is every module. */
    module: varchar('module', { length: 100 }).notNull().default(''),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    unit: varchar('unit', { length: 10 }).$type<'tokens' | 'turns'>().notNull(),
    limit: bigint('limit', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('budgets_scope_key').on(t.companyId, t.module, t.userId).nullsNotDistinct()],
);
export type Budget = typeof budgets.$inferSelect;

/**
 * A month's tokens and turns per company, module and person, upserted with each turn's usage:
 * what a budget has used is a sum over a few rows, never a scan of the turns.
 */
export const usageMonthly = pgTable(
  'usage_monthly',
  {
    /** The first day of the month (UTC). */
    month: date('month').notNull(),
    companyId: companyRef(),
    module: varchar('module', { length: 100 }).notNull(),
    userId: uuid('user_id').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    turns: integer('turns').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.month, t.module, t.userId] })],
);

/**
 * What a running turn is expected to use, held from the moment its placeholder is stored until
 * its usage is recorded (reserve, then settle: ADR 0070).
 */
export const budgetReservations = pgTable(
  'budget_reservations',
  {
    messageId: uuid('message_id').primaryKey(),
    companyId: companyRef(),
    module: varchar('module', { length: 100 }).notNull(),
    userId: uuid('user_id').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('budget_reservations_company_idx').on(t.companyId)],
);

/** A 75% or 90% warning sent for a budget in a month: each is sent once. */
export const budgetWarnings = pgTable(
  'budget_warnings',
  {
    budgetId: integer('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    threshold: integer('threshold').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.budgetId, t.month, t.threshold] })],
);

/** What the header bell lists for a user (budget warnings for admins, and more: ADR 0072). */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: userRef(),
    kind: varchar('kind', { length: 50 }).notNull(),
    title: varchar('title', { length: 255 }).notNull(),
    body: varchar('body', { length: 1000 }).notNull().default(''),
    /** Where the bell's entry leads, a path of the app. */
    link: varchar('link', { length: 500 }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.id)],
);

/**
 * Which chat each open socket follows, in whichever process holds it: a reply that finishes
 * while none of its user's sockets follows the chat becomes a notification (ADR 0077). A row
 * whose seenAt is older than two ping periods belongs to a process that died and is ignored.
 */
export const chatViewers = pgTable(
  'chat_viewers',
  {
    connectionId: uuid('connection_id').primaryKey(),
    userId: userRef(),
    chatId: chatRef(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('chat_viewers_user_chat_idx').on(t.userId, t.chatId)],
);

/**
 * The company library (docs/decisions/0065-company-library.md): documents per company and
 * module, each with its versions (all kept) and the passages of every version. A document's name
 * is its file name; adding the same name again adds a version.
 */
export const libraryDocuments = pgTable(
  'library_documents',
  {
    id: serial('id').primaryKey(),
    companyId: companyRef(),
    module: varchar('module', { length: 32 }).notNull(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    /** The text search configuration its passages are indexed with (library_english, ...). */
    language: varchar('language', { length: 32 }).notNull(),
    currentVersion: integer('current_version').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('library_documents_name_idx').on(t.companyId, t.module, t.fileName),
    index('library_documents_company_idx').on(t.companyId, t.module),
  ],
);
export type LibraryDocument = typeof libraryDocuments.$inferSelect;

export const libraryVersions = pgTable(
  'library_versions',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => libraryDocuments.id, { onDelete: 'cascade' }),
    /** Kept for the quota and the isolation checks without a join. */
    companyId: integer('company_id').notNull(),
    version: integer('version').notNull(),
    mimeType: varchar('mime_type', { length: 255 }).notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    addedByEmail: varchar('added_by_email', { length: 255 }),
    passages: integer('passages').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('library_versions_doc_idx').on(t.documentId, t.version),
    index('library_versions_company_idx').on(t.companyId),
  ],
);
export type LibraryVersion = typeof libraryVersions.$inferSelect;

/**
 * A passage keeps its place: document, version, heading path, page or clause. `searchable` is
 * true for the current version of a document not retired; the search reads those only, always
 * filtered by company and module in the query itself.
 */
export const libraryPassages = pgTable(
  'library_passages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    module: varchar('module', { length: 32 }).notNull(),
    documentId: integer('document_id')
      .notNull()
      .references(() => libraryDocuments.id, { onDelete: 'cascade' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => libraryVersions.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    headingPath: text('heading_path').notNull(),
    clause: varchar('clause', { length: 32 }),
    page: integer('page'),
    text: text('text').notNull(),
    language: varchar('language', { length: 32 }).notNull(),
    searchable: boolean('searchable').notNull(),
    searchVector: tsvector('search_vector').notNull(),
    /**
     * The passage's embedding, unit length, when an embedding endpoint is configured (ADR 0026);
     * null until the background embedder reaches it (full text serves meanwhile). A plain array,
     * so the column exists whether or not the database has pgvector.
     */
    embedding: real('embedding').array(),
    /**
     * The model that made `embedding` (ADR 0093): a search compares only vectors of the
     * configured model, and the embedder redoes the others.
     */
    embeddingModel: varchar('embedding_model', { length: 200 }),
  },
  (t) => [
    index('library_passages_version_idx').on(t.versionId, t.ordinal),
    index('library_passages_search_idx')
      .using('gin', t.searchVector)
      .where(sql`${t.searchable}`),
    index('library_passages_scope_idx')
      .on(t.companyId, t.module)
      .where(sql`${t.searchable}`),
    // The background embedder's queue (ADR 0026): empty once every passage has its vector.
    index('library_passages_unembedded_idx')
      .on(t.id)
      .where(sql`${t.searchable} and ${t.embedding} is null`),
  ],
);
export type LibraryPassage = typeof libraryPassages.$inferSelect;

/**
 * A reading of a table layout a user confirmed or corrected (ADR 0052): the next export of that
 * layout (same header signature) in the company is read that way at once.
 */
export const rememberedReadings = pgTable(
  'remembered_readings',
  {
    id: serial('id').primaryKey(),
    companyId: companyRef(),
    signature: varchar('signature', { length: 128 }).notNull(),
    /** The TableReading as confirmed (contract/reading.ts). */
    reading: jsonValue('reading').notNull(),
    confirmedBy: uuid('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('remembered_readings_company_signature_idx').on(t.companyId, t.signature)],
);
export type RememberedReading = typeof rememberedReadings.$inferSelect;

/**
 * How many searchable passages of a company's module hold each lexeme (ADR 0068): kept in step
 * with `library_passages.searchable` in the same transactions, so a search picks the question's
 * rarest words to match on and ranks a few thousand passages, not every one holding "employee".
 */
export const libraryTerms = pgTable(
  'library_terms',
  {
    companyId: companyRef(),
    module: varchar('module', { length: 32 }).notNull(),
    lexeme: text('lexeme').notNull(),
    passages: integer('passages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.module, t.lexeme] })],
);

/**
 * How long a company keeps a module's chats after their last activity (ADR 0071): no row is
 * for ever, the default. The daily purge deletes what is past it, legal holds excepted.
 */
export const retentionPolicies = pgTable(
  'retention_policies',
  {
    companyId: companyRef(),
    module: varchar('module', { length: 100 }).notNull(),
    days: integer('days').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.module] })],
);
export type RetentionPolicy = typeof retentionPolicies.$inferSelect;

/** A legal hold (ADR 0071): on a person (all their chats) or on one chat; the purge skips both. */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: serial('id').primaryKey(),
    companyId: companyRef(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id').references(() => chats.id, { onDelete: 'cascade' }),
    reason: varchar('reason', { length: 500 }).notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByEmail: varchar('created_by_email', { length: 255 }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('legal_holds_target_key').on(t.companyId, t.userId, t.chatId).nullsNotDistinct(),
    index('legal_holds_user_idx').on(t.userId),
    index('legal_holds_chat_idx').on(t.chatId),
    check('legal_holds_one_target', sql`(${t.userId} is null) <> (${t.chatId} is null)`),
  ],
);
export type LegalHold = typeof legalHolds.$inferSelect;

/** Each run of the retention purge (ADR 0073): the daily one starts when the last is a day old. */
export const retentionRuns = pgTable('retention_runs', {
  id: serial('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  chats: integer('chats').notNull().default(0),
});

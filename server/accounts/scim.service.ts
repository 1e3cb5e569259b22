import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SQL } from 'drizzle-orm';
import {
  SCIM_LIST_SCHEMA,
  SCIM_USER_SCHEMA,
  ScimBoolean,
  ScimPatchBody,
  ScimUserBody,
  type ScimListResponse,
  type ScimUser,
} from '@contract/scim';
import { recordAudit } from '../audit/audit';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { Clock } from '../lib/clock';
import type { Bus } from '../realtime/bus';
import { findUserByEmail, insertUser, updateUser, type CompanyWithDomains } from './accounts.repo';
import { hashPassword } from './passwords';
import * as repo from './scim.repo';
import { destroyUserSessions, hashToken, announceSessionsEnded } from './sessions';

// SCIM 2.0 provisioning of a company's users (ADR 0037): the provider creates, updates and
// deprovisions; deprovisioning (active false, or DELETE) disables the user at once, ends every
// session and socket, and keeps their chats.

/** An error in SCIM's own shape (RFC 7644 section 3.12). */
export class ScimError extends Error {
  override name = 'ScimError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

const MAX_PAGE = 200;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** What a create, replace or patch sets; absent fields stay as they are. */
interface UserChanges {
  userName?: string;
  givenName?: string;
  familyName?: string;
  externalId?: string | null;
  active?: boolean;
}

export interface ScimDeps {
  config: Config;
  database: Database;
  bus: Bus;
  clock: Clock;
}

export function invalid(detail: string, scimType = 'invalidValue'): ScimError {
  return new ScimError(400, detail, scimType);
}

export function parseOr400<T>(
  schema: {
    safeParse: (
      v: unknown,
    ) =>
      | { success: true; data: T }
      | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
  },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw invalid(`${where}${issue.message}`);
}

export class ScimService {
  constructor(
    private readonly deps: ScimDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  /** The company whose token the `Authorization: Bearer` header carries, or 401. */
  async authenticate(header: string | undefined): Promise<CompanyWithDomains> {
    const token = /^Bearer\s+(\S{20,200})$/i.exec(header ?? '')?.[1];
    const company = token
      ? await repo.companyForTokenHash(hashToken(token), this.deps.clock.now(), this.db)
      : undefined;
    if (!company) throw new ScimError(401, 'A valid SCIM bearer token is required.');
    return company;
  }

  private location(id: string) {
    return `${this.deps.config.appUrl}/scim/v2/Users/${id}`;
  }

  private resource(row: repo.ScimUserRow): ScimUser {
    const u = row.user;
    return {
      schemas: [SCIM_USER_SCHEMA],
      id: u.id,
      ...(row.externalId ? { externalId: row.externalId } : {}),
      userName: u.email,
      name: {
        givenName: u.firstName,
        familyName: u.lastName,
        formatted: `${u.firstName} ${u.lastName}`.trim(),
      },
      displayName: `${u.firstName} ${u.lastName}`.trim(),
      emails: [{ value: u.email, type: 'work', primary: true }],
      active: u.disabledAt === null,
      meta: {
        resourceType: 'User',
        created: u.createdAt.toISOString(),
        lastModified: u.updatedAt.toISOString(),
        location: this.location(u.id),
      },
    };
  }

  async list(
    company: CompanyWithDomains,
    query: { filter?: string; startIndex?: string; count?: string },
  ): Promise<ScimListResponse<ScimUser>> {
    const { startIndex, offset, limit } = pageOf(query);
    const filter =
      query.filter === undefined ? undefined : parseEqFilter(query.filter, USER_FILTERS);
    const { total, rows } = await repo.listUsers(company, filter, offset, limit, this.db);
    return {
      schemas: [SCIM_LIST_SCHEMA],
      totalResults: total,
      startIndex,
      itemsPerPage: rows.length,
      Resources: rows.map((r) => this.resource(r)),
    };
  }

  private async find(company: CompanyWithDomains, id: string): Promise<repo.ScimUserRow> {
    const row = UUID.test(id) ? await repo.findUser(company, id, this.db) : undefined;
    if (!row) throw new ScimError(404, `User ${id} not found`);
    return row;
  }

  async get(company: CompanyWithDomains, id: string): Promise<ScimUser> {
    return this.resource(await this.find(company, id));
  }

  async create(company: CompanyWithDomains, raw: unknown): Promise<ScimUser> {
    const body = parseOr400(ScimUserBody, raw);
    const changes = changesFromResource(body);
    this.checkDomain(company, body.userName);
    const existing = await findUserByEmail(body.userName, this.db);
    if (existing && (await repo.findUser(company, existing.id, this.db)))
      throw new ScimError(409, `A user with userName ${body.userName} exists`, 'uniqueness');
    let userId = existing?.id;
    if (!userId) {
      const password = await hashPassword(randomBytes(32).toString('base64url'));
      const local = body.userName.slice(0, body.userName.indexOf('@'));
      const user = await insertUser(
        {
          email: body.userName,
          password,
          firstName: changes.givenName || local.slice(0, 100),
          lastName: changes.familyName ?? '',
          companyId: company.id,
          // The company's own directory vouches for an address on the company's own domain.
          isEmailVerified: true,
        },
        this.db,
      );
      if (!user)
        throw new ScimError(409, `A user with userName ${body.userName} exists`, 'uniqueness');
      userId = user.id;
    }
    // A user SCIM deleted earlier comes back (same id, their chats kept).
    await this.apply(company, userId, { ...changes, externalId: changes.externalId ?? null }, true);
    return this.get(company, userId);
  }

  async replace(company: CompanyWithDomains, id: string, raw: unknown): Promise<ScimUser> {
    await this.find(company, id);
    const body = parseOr400(ScimUserBody, raw);
    const changes = changesFromResource(body);
    // PUT replaces: an attribute left out is cleared (externalId), active defaults to true.
    await this.apply(company, id, {
      ...changes,
      externalId: changes.externalId ?? null,
      active: changes.active ?? true,
    });
    return this.get(company, id);
  }

  async patch(company: CompanyWithDomains, id: string, raw: unknown): Promise<ScimUser> {
    await this.find(company, id);
    const body = parseOr400(ScimPatchBody, raw);
    const changes: UserChanges = {};
    for (const op of body.Operations) {
      if (op.op === 'remove') {
        if (op.path?.toLowerCase() === 'externalid') changes.externalId = null;
        else if (!op.path) throw invalid('remove needs a path', 'noTarget');
        continue;
      }
      const entries: Array<[string, unknown]> = op.path
        ? [[op.path, op.value]]
        : op.value && typeof op.value === 'object' && !Array.isArray(op.value)
          ? Object.entries(op.value as Record<string, unknown>)
          : [];
      if (!op.path && entries.length === 0)
        throw invalid(`${op.op} without a path needs an object value`);
      for (const [path, value] of entries) setAttribute(changes, path, value);
    }
    await this.apply(company, id, changes);
    return this.get(company, id);
  }

  async remove(company: CompanyWithDomains, id: string): Promise<void> {
    await this.find(company, id);
    await this.apply(company, id, { active: false }, false, true);
  }

  private checkDomain(company: CompanyWithDomains, email: string) {
    if (!company.emailDomains.includes(domainOf(email)))
      throw invalid(`userName ${email} is not on one of ${company.name}'s e-mail domains`);
  }

  /**
   * Writes the changes in one transaction; a user made inactive (or deleted) loses every session
   * there, and every process closes their sockets once it commits (SESSION_ENDED_CHANNEL).
   */
  private async apply(
    company: CompanyWithDomains,
    userId: string,
    changes: UserChanges,
    revive = false,
    deleted = false,
  ): Promise<void> {
    if (changes.userName !== undefined) this.checkDomain(company, changes.userName);
    const now = this.deps.clock.now();
    const { ended, deprovisioned } = await this.db.transaction(async (tx) => {
      const current = await repo.findUser(company, userId, tx);
      if (!current && !revive) throw new ScimError(404, `User ${userId} not found`);
      if (changes.userName !== undefined && changes.userName !== current?.user.email) {
        const taken = await findUserByEmail(changes.userName, tx);
        if (taken && taken.id !== userId)
          throw new ScimError(409, `A user with userName ${changes.userName} exists`, 'uniqueness');
      }
      const deactivate = changes.active === false;
      await updateUser(
        userId,
        {
          ...(changes.userName !== undefined ? { email: changes.userName } : {}),
          ...(changes.givenName !== undefined ? { firstName: changes.givenName } : {}),
          ...(changes.familyName !== undefined ? { lastName: changes.familyName } : {}),
          ...(changes.active === true ? { disabledAt: null } : {}),
          ...(deactivate && !current?.user.disabledAt ? { disabledAt: now } : {}),
        },
        now,
        tx,
      );
      await repo.upsertScimUser(
        {
          userId,
          companyId: company.id,
          externalId:
            changes.externalId !== undefined ? changes.externalId : (current?.externalId ?? null),
          deletedAt: deleted ? now : null,
        },
        now,
        tx,
      );
      if (!deactivate) return { ended: [], deprovisioned: null };
      return {
        ended: await destroyUserSessions(tx, userId, null),
        // Recorded once, when the user goes from active to disabled (or is deleted).
        deprovisioned: current && (!current.user.disabledAt || deleted) ? current.user.email : null,
      };
    });
    await announceSessionsEnded(this.deps.bus, ended);
    if (deprovisioned) {
      this.log.info({ userId, sessions: ended.length }, 'SCIM deprovisioned a user');
      await recordAudit(this.db, this.deps.clock, {
        action: 'scim_user_deprovisioned',
        companyId: company.id,
        target: deprovisioned,
        detail: `${deleted ? 'deleted' : 'made inactive'} by the directory; ${ended.length} session(s) ended`,
      });
    }
  }
}

function changesFromResource(body: ScimUserBody): UserChanges {
  let givenName = body.name?.givenName;
  let familyName = body.name?.familyName;
  if (givenName === undefined && familyName === undefined && body.displayName) {
    const [first = '', ...rest] = body.displayName.split(/\s+/);
    givenName = first;
    familyName = rest.join(' ').slice(0, 100);
  }
  return {
    userName: body.userName,
    givenName,
    familyName,
    externalId: body.externalId,
    active: body.active,
  };
}

/** One attribute of a PATCH (RFC 7644 3.5.2); attributes Atrium does not keep are ignored. */
function setAttribute(changes: UserChanges, path: string, value: unknown): void {
  const str = (max: number) => {
    if (typeof value !== 'string') throw invalid(`${path} must be a string`);
    const v = value.trim();
    if (v.length > max) throw invalid(`${path} is at most ${max} characters`);
    return v;
  };
  switch (path.toLowerCase()) {
    case 'active':
      changes.active = parseOr400(ScimBoolean, value);
      return;
    case 'username':
      changes.userName = parseOr400(ScimUserBody.shape.userName, value);
      return;
    case 'externalid':
      changes.externalId = str(255);
      return;
    case 'name.givenname':
      changes.givenName = str(100);
      return;
    case 'name.familyname':
      changes.familyName = str(100);
      return;
    case 'name': {
      if (!value || typeof value !== 'object') throw invalid('name must be an object');
      const n = value as Record<string, unknown>;
      if (n.givenName !== undefined) setAttribute(changes, 'name.givenName', n.givenName);
      if (n.familyName !== undefined) setAttribute(changes, 'name.familyName', n.familyName);
      return;
    }
    default:
      // displayName, emails, title, enterprise extension...: not kept by Atrium.
      return;
  }
}

/**
 * A filter `<attribute> eq "<value>"` (RFC 7644 3.4.2.2) over the attributes given (names in
 * lower case; SCIM attribute names are case-insensitive), or 400 invalidFilter.
 */
export function parseEqFilter(
  filter: string,
  attributes: Record<string, (value: string) => SQL>,
): SQL {
  const m = /^\s*([\w.]+)\s+eq\s+"((?:[^"\\]|\\.){0,255})"\s*$/i.exec(filter);
  const build = m ? attributes[m[1]!.toLowerCase()] : undefined;
  if (!m || !build)
    throw invalid(
      `Only filters of the form <attribute> eq "value" are supported, for ${Object.keys(attributes).join(', ')}`,
      'invalidFilter',
    );
  return build(m[2]!.replace(/\\(.)/g, '$1'));
}

/** An id filter value that is not a uuid matches nothing (rather than failing in SQL). */
export const uuidOrNone = (v: string) =>
  UUID.test(v) ? v : '00000000-0000-0000-0000-000000000000';

const USER_FILTERS = {
  username: (v: string) => repo.userNameIs(v.trim().toLowerCase()),
  externalid: (v: string) => repo.externalIdIs(v),
  id: (v: string) => repo.idIs(uuidOrNone(v)),
};

/** startIndex (from 1) and count (at most MAX_PAGE) of a list request, as offset and limit. */
export function pageOf(query: { startIndex?: string; count?: string }) {
  const startIndex = Math.max(1, Number.parseInt(query.startIndex ?? '1', 10) || 1);
  const wanted = query.count === undefined ? 100 : Number.parseInt(query.count, 10);
  const limit = Math.min(MAX_PAGE, Math.max(0, Number.isFinite(wanted) ? wanted : 100));
  return { startIndex, offset: startIndex - 1, limit };
}

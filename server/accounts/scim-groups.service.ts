import {
  SCIM_GROUP_SCHEMA,
  SCIM_LIST_SCHEMA,
  ScimGroupBody,
  ScimMembers,
  ScimPatchBody,
  type ScimGroup,
  type ScimListResponse,
} from '@contract/scim';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { ScimGroup as GroupRow } from '../db/schema';
import type { CompanyWithDomains } from './accounts.repo';
import type { Clock } from '../lib/clock';
import { applyScimGroupRoles, scimGroupMemberIds } from './admin-groups';
import * as groups from './scim-groups.repo';
import { usersInCompany } from './scim.repo';
import {
  ScimError,
  UUID,
  invalid,
  pageOf,
  parseEqFilter,
  parseOr400,
  uuidOrNone,
} from './scim.service';

// SCIM groups of a company (ADR 0037): kept with their members, so a provider can push them.
// A group named in the company's admin groups makes its members company admins (ADR 0078): each
// change of a group's members or name gives the people it touched the role their groups make.

const GROUP_FILTERS = {
  displayname: (v: string) => groups.groupNameIs(v),
  externalid: (v: string) => groups.groupExternalIdIs(v),
  id: (v: string) => groups.groupIdIs(uuidOrNone(v)),
};

/** `members[value eq "<id>"]`, the path providers use to remove one member. */
const MEMBER_PATH = /^members\[\s*value\s+eq\s+"([^"]{1,64})"\s*\]$/i;

export interface ScimGroupsDeps {
  config: Config;
  database: Database;
  clock: Clock;
}

export class ScimGroupsService {
  constructor(private readonly deps: ScimGroupsDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  private async resources(rows: GroupRow[]): Promise<ScimGroup[]> {
    const members = await groups.membersOf(
      rows.map((g) => g.id),
      this.db,
    );
    const base = `${this.deps.config.appUrl}/scim/v2`;
    return rows.map((g) => ({
      schemas: [SCIM_GROUP_SCHEMA],
      id: g.id,
      displayName: g.displayName,
      ...(g.externalId ? { externalId: g.externalId } : {}),
      members: members
        .filter((m) => m.groupId === g.id)
        .map((m) => ({
          value: m.userId,
          display: `${m.firstName} ${m.lastName}`.trim(),
          $ref: `${base}/Users/${m.userId}`,
        })),
      meta: {
        resourceType: 'Group',
        created: g.createdAt.toISOString(),
        lastModified: g.updatedAt.toISOString(),
        location: `${base}/Groups/${g.id}`,
      },
    }));
  }

  /** Runs a change of group `id` and then gives its members before and after their role. */
  private async changing<T>(
    company: CompanyWithDomains,
    id: string | null,
    change: () => Promise<T>,
    idOf: (result: T) => string,
  ): Promise<T> {
    const before = id ? await scimGroupMemberIds(id, this.db) : [];
    const result = await change();
    const after = await scimGroupMemberIds(idOf(result), this.db);
    await applyScimGroupRoles(this.db, this.deps.clock, company.id, [...before, ...after]);
    return result;
  }

  private async find(company: CompanyWithDomains, id: string): Promise<GroupRow> {
    const g = UUID.test(id) ? await groups.findGroup(company.id, id, this.db) : undefined;
    if (!g) throw new ScimError(404, `Group ${id} not found`);
    return g;
  }

  /** The member ids, each one of the company's users, or 400. */
  private async memberIds(
    company: CompanyWithDomains,
    values: Array<{ value: string }>,
  ): Promise<string[]> {
    const ids = [...new Set(values.map((m) => m.value))];
    const known = new Set(
      await usersInCompany(
        company,
        ids.filter((id) => UUID.test(id)),
        this.db,
      ),
    );
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw invalid(`No user ${unknown[0]} in this company`);
    return ids;
  }

  async list(
    company: CompanyWithDomains,
    query: { filter?: string; startIndex?: string; count?: string },
  ): Promise<ScimListResponse<ScimGroup>> {
    const { startIndex, offset, limit } = pageOf(query);
    const filter =
      query.filter === undefined ? undefined : parseEqFilter(query.filter, GROUP_FILTERS);
    const { total, rows } = await groups.listGroups(company.id, filter, offset, limit, this.db);
    return {
      schemas: [SCIM_LIST_SCHEMA],
      totalResults: total,
      startIndex,
      itemsPerPage: rows.length,
      Resources: await this.resources(rows),
    };
  }

  async get(company: CompanyWithDomains, id: string): Promise<ScimGroup> {
    return (await this.resources([await this.find(company, id)]))[0]!;
  }

  async create(company: CompanyWithDomains, raw: unknown): Promise<ScimGroup> {
    const body = parseOr400(ScimGroupBody, raw);
    const members = await this.memberIds(company, body.members ?? []);
    const make = () =>
      this.db.transaction(async (tx) => {
        const g = await groups.insertGroup(
          {
            companyId: company.id,
            displayName: body.displayName,
            externalId: body.externalId ?? null,
          },
          tx,
        );
        if (!g) throw new ScimError(409, `A group named ${body.displayName} exists`, 'uniqueness');
        await groups.addMembers(g.id, members, tx);
        return g;
      });
    const group = await this.changing(company, null, make, (g) => g.id);
    return this.get(company, group.id);
  }

  async replace(company: CompanyWithDomains, id: string, raw: unknown): Promise<ScimGroup> {
    await this.find(company, id);
    const body = parseOr400(ScimGroupBody, raw);
    const members = await this.memberIds(company, body.members ?? []);
    await this.changing(
      company,
      id,
      () => this.replaceIn(company, id, body, members),
      () => id,
    );
    return this.get(company, id);
  }

  private async replaceIn(
    company: CompanyWithDomains,
    id: string,
    body: ScimGroupBody,
    members: string[],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.rename(company, id, body.displayName, tx);
      await groups.updateGroup(
        id,
        { externalId: body.externalId ?? null },
        this.deps.clock.now(),
        tx,
      );
      await groups.removeMembers(id, null, tx);
      await groups.addMembers(id, members, tx);
    });
  }

  private async rename(
    company: CompanyWithDomains,
    id: string,
    displayName: string,
    tx: Parameters<typeof groups.findGroup>[2],
  ) {
    const [clash] = (await groups.listGroups(company.id, groups.groupNameIs(displayName), 0, 1, tx))
      .rows;
    if (clash && clash.id !== id)
      throw new ScimError(409, `A group named ${displayName} exists`, 'uniqueness');
    await groups.updateGroup(id, { displayName }, this.deps.clock.now(), tx);
  }

  async patch(company: CompanyWithDomains, id: string, raw: unknown): Promise<ScimGroup> {
    await this.find(company, id);
    const body = parseOr400(ScimPatchBody, raw);
    // Members are checked before anything is written: one bad operation changes nothing.
    const steps: Array<(tx: Parameters<typeof groups.findGroup>[2]) => Promise<void>> = [];
    for (const op of body.Operations) {
      const path = op.path?.trim();
      const one = path ? MEMBER_PATH.exec(path) : null;
      if (one && op.op === 'remove') {
        steps.push((tx) => groups.removeMembers(id, [one[1]!], tx));
      } else if (path?.toLowerCase() === 'members') {
        const values =
          op.op === 'remove' && op.value === undefined ? null : parseOr400(ScimMembers, op.value);
        if (op.op === 'remove')
          steps.push((tx) => groups.removeMembers(id, values?.map((m) => m.value) ?? null, tx));
        else {
          const ids = await this.memberIds(company, values ?? []);
          if (op.op === 'replace') steps.push((tx) => groups.removeMembers(id, null, tx));
          steps.push((tx) => groups.addMembers(id, ids, tx));
        }
      } else if (op.op === 'remove') {
        if (path?.toLowerCase() === 'externalid')
          steps.push((tx) =>
            groups.updateGroup(id, { externalId: null }, this.deps.clock.now(), tx),
          );
        else throw invalid(`remove of ${path ?? 'nothing'} is not supported`, 'noTarget');
      } else {
        const entries: Array<[string, unknown]> = path
          ? [[path, op.value]]
          : op.value && typeof op.value === 'object'
            ? Object.entries(op.value as Record<string, unknown>)
            : [];
        for (const [attr, value] of entries) {
          const name = attr.toLowerCase();
          if (name === 'displayname') {
            const displayName = parseOr400(ScimGroupBody.shape.displayName, value);
            steps.push((tx) => this.rename(company, id, displayName, tx));
          } else if (name === 'externalid') {
            const externalId = parseOr400(ScimGroupBody.shape.externalId, value) ?? null;
            steps.push((tx) => groups.updateGroup(id, { externalId }, this.deps.clock.now(), tx));
          } else if (name === 'members') {
            const ids = await this.memberIds(company, parseOr400(ScimMembers, value));
            steps.push((tx) => groups.addMembers(id, ids, tx));
          }
        }
      }
    }
    await this.changing(
      company,
      id,
      () =>
        this.db.transaction(async (tx) => {
          for (const step of steps) await step(tx);
          await groups.updateGroup(id, {}, this.deps.clock.now(), tx);
        }),
      () => id,
    );
    return this.get(company, id);
  }

  async remove(company: CompanyWithDomains, id: string): Promise<void> {
    await this.find(company, id);
    const before = await scimGroupMemberIds(id, this.db);
    await groups.deleteGroup(id, this.db);
    await applyScimGroupRoles(this.db, this.deps.clock, company.id, before);
  }
}

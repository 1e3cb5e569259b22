import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isLocalIssuer, ssoSecretContext } from '../accounts/sso.service';
import { replaceToken } from '../accounts/scim.repo';
import { hashToken } from '../accounts/sessions';
import * as repo from '../accounts/sso.repo';
import { adminGroupsOf } from '../accounts/admin-groups';
import { recordAudit } from '../audit/audit';
import type { Db } from '../db/connect';
import type { CompanySso } from '../db/schema';
import { NotFoundError, ValidationError } from '../lib/errors';
import { encryptSecret } from '../lib/secrets';
import { parse } from '../lib/validate';

/** The admin command's own time, as a clock for the audit log. */
const at = (now: Date) => ({ now: () => now });
import { findCompany } from './companies';

// Operator commands on a company's identity provider (ADR 0034). The client secret is read from
// an environment variable the operator names (never a command-line word, which shells and `ps`
// keep), stored encrypted with SECRETS_KEY, and never printed again.

export const Issuer = z
  .string()
  .trim()
  .max(500, 'The issuer URL is at most 500 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || (u.protocol === 'http:' && isLocalIssuer(u));
    } catch {
      return false;
    }
  }, 'The issuer must be an https:// URL (http:// only for a provider on this machine)');

export const Scopes = z
  .string()
  .trim()
  .max(255, 'Scopes are at most 255 characters')
  .transform((v) => [...new Set(v.split(/\s+/).filter(Boolean))].join(' '))
  .refine((v) => v.split(' ').includes('openid'), 'Scopes must include openid')
  .refine((v) => v.split(' ').includes('email'), 'Scopes must include email (the sign-in address)');

export const ClientId = z
  .string()
  .trim()
  .min(1, 'Give --client-id')
  .max(255, 'The client id is at most 255 characters');

export interface SsoSetInput {
  issuer?: string;
  clientId?: string;
  clientSecretEnv?: string;
  scopes?: string;
  enforce?: boolean;
}

export interface SsoSecrets {
  /** SECRETS_KEY, or undefined when the server has none. */
  key: Buffer | undefined;
  /** The value of the variable an operator named. */
  fromEnv: (name: string) => string | undefined;
}

/** Sets or changes a company's provider; options not given keep their stored value. */
export async function setSso(
  db: Db,
  ref: string,
  input: SsoSetInput,
  secrets: SsoSecrets,
  now: Date,
): Promise<{ companyName: string; domains: string[]; sso: CompanySso }> {
  const company = await findCompany(db, ref);
  if (company.emailDomains.length === 0)
    throw new ValidationError(
      `${company.name} has no e-mail domains: single sign-on finds the company by the address's domain. Add them first (companies update "${company.name}" --domains example.com).`,
    );
  if (!secrets.key)
    throw new ValidationError(
      'Single sign-on needs SECRETS_KEY (32 bytes as base64, e.g. openssl rand -base64 32) in the environment, the same as the server has: the client secret is stored encrypted with it.',
    );
  const current = (await repo.ssoForCompany(company.id, db))?.sso;
  const need = (v: string | undefined, option: string) => {
    if (v === undefined && !current)
      throw new ValidationError(`Give ${option} (${company.name} has no single sign-on yet)`);
    return v;
  };
  const issuer = need(input.issuer, '--issuer');
  const clientId = need(input.clientId, '--client-id');
  const secretEnv = need(input.clientSecretEnv, '--client-secret-env');
  let clientSecretEncrypted = current?.clientSecretEncrypted;
  if (secretEnv !== undefined) {
    const secret = secrets.fromEnv(secretEnv);
    if (!secret)
      throw new ValidationError(
        `--client-secret-env names ${secretEnv}, but ${secretEnv} is not set (or empty)`,
      );
    clientSecretEncrypted = encryptSecret(secrets.key, ssoSecretContext(company.id), secret);
  }
  const values: repo.SsoSettingsValues = {
    issuer: issuer !== undefined ? parse(Issuer, issuer) : current!.issuer,
    clientId: clientId !== undefined ? parse(ClientId, clientId) : current!.clientId,
    clientSecretEncrypted: clientSecretEncrypted!,
    scopes:
      input.scopes !== undefined
        ? parse(Scopes, input.scopes)
        : (current?.scopes ?? 'openid email profile'),
    enforced: input.enforce ?? current?.enforced ?? false,
  };
  const sso = await repo.upsertSso(company.id, values, now, db);
  await recordAudit(db, at(now), {
    companyId: company.id,
    action: 'sso_settings_changed',
    detail: JSON.stringify({
      by: 'admin command',
      issuer: values.issuer,
      clientId: values.clientId,
      scopes: values.scopes,
      enforced: values.enforced,
      clientSecretChanged: secretEnv !== undefined,
    }),
  });
  return { companyName: company.name, domains: company.emailDomains, sso };
}

export async function showSso(
  db: Db,
  ref: string,
): Promise<{ companyName: string; domains: string[]; sso: CompanySso; adminGroups: string[] }> {
  const company = await findCompany(db, ref);
  const found = await repo.ssoForCompany(company.id, db);
  if (!found) throw new NotFoundError(`${company.name} has no single sign-on`);
  return {
    companyName: company.name,
    domains: company.emailDomains,
    sso: found.sso,
    adminGroups: await adminGroupsOf(company.id, db),
  };
}

export async function removeSso(db: Db, ref: string, now: Date): Promise<string> {
  const company = await findCompany(db, ref);
  if (!(await repo.deleteSso(company.id, db)))
    throw new NotFoundError(`${company.name} has no single sign-on`);
  await recordAudit(db, at(now), {
    companyId: company.id,
    action: 'sso_settings_changed',
    detail: 'by admin command: single sign-on removed',
  });
  return company.name;
}

/** What `sso show` prints: never the secret, only that one is stored. */
export function ssoLines(
  companyName: string,
  domains: string[],
  sso: CompanySso,
  appUrl: string,
  adminGroups: string[] = [],
): string[] {
  return [
    `${companyName}: single sign-on (OpenID Connect)`,
    `  issuer: ${sso.issuer}`,
    `  client id: ${sso.clientId}`,
    '  client secret: stored encrypted (not shown)',
    `  scopes: ${sso.scopes}`,
    `  enforced: ${sso.enforced ? `yes (no password sign-in for ${domains.join(', ')})` : 'no (password sign-in stays)'}`,
    `  redirect URI to register at the provider: ${appUrl}/api/auth/sso/callback`,
    `  post-logout redirect URI: ${appUrl}/`,
    `  admin groups: ${adminGroups.length ? adminGroups.join(', ') : 'none (roles are set in the console)'}`,
    `  changed: ${sso.updatedAt.toISOString()}`,
  ];
}

/**
 * A new SCIM bearer token for the company, replacing the previous one (ADR 0037). Returned once
 * to be shown; only its hash is stored.
 */
export async function newScimToken(
  db: Db,
  ref: string,
  now: Date,
): Promise<{ companyName: string; token: string }> {
  const company = await findCompany(db, ref);
  if (company.emailDomains.length === 0)
    throw new ValidationError(
      `${company.name} has no e-mail domains: SCIM reaches the users on the company's domains. Add them first.`,
    );
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  await db.transaction((tx) => replaceToken(company.id, hashToken(token), tx));
  await recordAudit(db, at(now), {
    companyId: company.id,
    action: 'scim_token_created',
    detail: 'by admin command: a new SCIM token replaces the old one',
  });
  return { companyName: company.name, token };
}

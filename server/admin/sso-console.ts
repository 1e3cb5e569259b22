import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { SamlSettingsBody } from '@contract/sso';
import type { OidcSettingsBody, SsoConsoleDto } from '@contract/sso-admin';

type OidcBody = z.output<typeof OidcSettingsBody>;
import {
  adminGroupsOf,
  applyAdminGroupsToScimMembers,
  replaceAdminGroups,
} from '../accounts/admin-groups';
import type { CompanyWithDomains } from '../accounts/accounts.repo';
import { removeSaml, samlDto, setSaml, type SettingsActor } from '../accounts/saml-settings';
import * as samlRepo from '../accounts/saml.repo';
import { replaceToken } from '../accounts/scim.repo';
import { hashToken } from '../accounts/sessions';
import { ssoSecretContext } from '../accounts/sso.service';
import * as ssoRepo from '../accounts/sso.repo';
import { recordAudit } from '../audit/audit';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import { scimTokens } from '../db/schema';
import type { Clock } from '../lib/clock';
import { NotFoundError, ValidationError } from '../lib/errors';
import { encryptSecret } from '../lib/secrets';
import { parse } from '../lib/validate';
import type { Admin } from './admin.service';
import { ClientId, Issuer, Scopes } from './sso';

// The console's "Single sign-on" panel (docs/decisions/0079-sso-console.md): the same settings
// the admin command sets, for the company an admin or operator has reached (AdminService.companyOf).
// The client secret is write-only: stored encrypted (ADR 0035), never sent back nor audited.

const OidcValues = z.object({ issuer: Issuer, clientId: ClientId, scopes: Scopes });

export const SSO_CONSOLE_MESSAGES = {
  noDomains: (company: string) =>
    `${company} has no e-mail domains: single sign-on finds the company by the address's domain. An operator adds them first.`,
  noSecretsKey:
    'This server has no SECRETS_KEY, so a client secret cannot be stored. Ask the operator to set it.',
  secretNeeded: 'Give the client secret (the provider shows it when the client is made)',
  noOidc: 'No OpenID Connect provider is set for this company',
  noScimToken: 'The company has no SCIM token',
};

export class SsoConsole {
  constructor(private readonly deps: { config: Config; database: Database; clock: Clock }) {}

  private get db() {
    return this.deps.database.db;
  }

  private actor(admin: Admin): SettingsActor {
    return {
      event: { ...admin.origin, actorId: admin.user.id, actorEmail: admin.user.email },
      by: 'console',
    };
  }

  private audit(
    admin: Admin,
    company: CompanyWithDomains,
    action: 'sso_settings_changed' | 'scim_token_created' | 'scim_token_revoked',
    detail: string,
  ) {
    return recordAudit(this.db, this.deps.clock, {
      ...this.actor(admin).event,
      companyId: company.id,
      action,
      detail,
    });
  }

  private requireDomains(company: CompanyWithDomains) {
    if (company.emailDomains.length === 0)
      throw new ValidationError(SSO_CONSOLE_MESSAGES.noDomains(company.name));
  }

  async view(company: CompanyWithDomains): Promise<SsoConsoleDto> {
    const { appUrl } = this.deps.config;
    const oidc = (await ssoRepo.ssoForCompany(company.id, this.db))?.sso;
    const saml = (await samlRepo.samlForCompany(company.id, this.db))?.saml;
    const [token] = await this.db
      .select()
      .from(scimTokens)
      .where(eq(scimTokens.companyId, company.id))
      .limit(1);
    return {
      company: { id: company.id, name: company.name, domains: company.emailDomains },
      secretsAvailable: Boolean(this.deps.config.secretsKey),
      oidc: {
        configured: Boolean(oidc),
        issuer: oidc?.issuer ?? null,
        clientId: oidc?.clientId ?? null,
        clientSecretSet: Boolean(oidc?.clientSecretEncrypted),
        scopes: oidc?.scopes ?? 'openid email profile',
        enforced: oidc?.enforced ?? false,
        redirectUri: `${appUrl}/api/auth/sso/callback`,
        postLogoutRedirectUri: `${appUrl}/`,
        updatedAt: oidc?.updatedAt.toISOString() ?? null,
      },
      saml: samlDto(appUrl, company.id, saml),
      scim: {
        set: Boolean(token),
        createdAt: token?.createdAt.toISOString() ?? null,
        lastUsedAt: token?.lastUsedAt?.toISOString() ?? null,
        baseUrl: `${appUrl}/scim/v2`,
      },
      adminGroups: await adminGroupsOf(company.id, this.db),
    };
  }

  /** Sets the company's OpenID Connect provider (its SAML settings, if any, go: ADR 0075). */
  async setOidc(admin: Admin, company: CompanyWithDomains, body: OidcBody): Promise<SsoConsoleDto> {
    this.requireDomains(company);
    const key = this.deps.config.secretsKey;
    if (!key) throw new ValidationError(SSO_CONSOLE_MESSAGES.noSecretsKey);
    const values = parse(OidcValues, {
      issuer: body.issuer,
      clientId: body.clientId,
      scopes: body.scopes ?? 'openid email profile',
    });
    const current = (await ssoRepo.ssoForCompany(company.id, this.db))?.sso;
    const secret = body.clientSecret?.trim() ?? '';
    if (!secret && !current)
      throw new ValidationError(SSO_CONSOLE_MESSAGES.secretNeeded, {
        clientSecret: SSO_CONSOLE_MESSAGES.secretNeeded,
      });
    const clientSecretEncrypted = secret
      ? encryptSecret(key, ssoSecretContext(company.id), secret)
      : current!.clientSecretEncrypted;
    const enforced = body.enforced ?? false;
    await ssoRepo.upsertSso(
      company.id,
      { ...values, clientSecretEncrypted, enforced },
      this.deps.clock.now(),
      this.db,
    );
    await this.audit(
      admin,
      company,
      'sso_settings_changed',
      JSON.stringify({
        by: 'console',
        protocol: 'oidc',
        ...values,
        enforced,
        clientSecretChanged: Boolean(secret),
      }),
    );
    return this.view(company);
  }

  async removeOidc(admin: Admin, company: CompanyWithDomains): Promise<SsoConsoleDto> {
    if (!(await ssoRepo.deleteSso(company.id, this.db)))
      throw new NotFoundError(SSO_CONSOLE_MESSAGES.noOidc);
    await this.audit(
      admin,
      company,
      'sso_settings_changed',
      'by console: OpenID Connect single sign-on removed',
    );
    return this.view(company);
  }

  async setSaml(
    admin: Admin,
    company: CompanyWithDomains,
    body: SamlSettingsBody,
  ): Promise<SsoConsoleDto> {
    this.requireDomains(company);
    await setSaml(this.db, this.deps.clock, company, body, this.actor(admin));
    return this.view(company);
  }

  async removeSaml(admin: Admin, company: CompanyWithDomains): Promise<SsoConsoleDto> {
    await removeSaml(this.db, this.deps.clock, company, this.actor(admin));
    return this.view(company);
  }

  /** A new SCIM token replacing the old one: returned once, only its hash is kept (ADR 0037). */
  async newScimToken(admin: Admin, company: CompanyWithDomains): Promise<string> {
    this.requireDomains(company);
    const token = `scim_${randomBytes(32).toString('base64url')}`;
    await this.db.transaction((tx) => replaceToken(company.id, hashToken(token), tx));
    await this.audit(
      admin,
      company,
      'scim_token_created',
      'by console: a new SCIM token replaces the old one',
    );
    return token;
  }

  async revokeScimToken(admin: Admin, company: CompanyWithDomains): Promise<SsoConsoleDto> {
    const gone = await this.db
      .delete(scimTokens)
      .where(eq(scimTokens.companyId, company.id))
      .returning({ id: scimTokens.id });
    if (!gone.length) throw new NotFoundError(SSO_CONSOLE_MESSAGES.noScimToken);
    await this.audit(
      admin,
      company,
      'scim_token_revoked',
      'by console: SCIM provisioning stopped (token revoked)',
    );
    return this.view(company);
  }

  async setAdminGroups(
    admin: Admin,
    company: CompanyWithDomains,
    groups: string[],
  ): Promise<SsoConsoleDto> {
    const before = await adminGroupsOf(company.id, this.db);
    const after = await replaceAdminGroups(company.id, groups, this.deps.clock.now(), this.db);
    if (before.join('\n') !== after.join('\n')) {
      await this.audit(
        admin,
        company,
        'sso_settings_changed',
        JSON.stringify({ by: 'console', adminGroups: after }),
      );
      // The directory's groups are known now: their members get their role at once (ADR 0078).
      await applyAdminGroupsToScimMembers(this.db, this.deps.clock, company.id);
    }
    return this.view(company);
  }
}

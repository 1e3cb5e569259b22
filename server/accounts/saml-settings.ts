import { X509Certificate } from 'node:crypto';
import type { SamlSettingsBody, SamlSettingsDto } from '@contract/sso';
import { recordAudit, type AuditEvent } from '../audit/audit';
import type { DbOrTx } from '../db/connect';
import type { CompanySaml } from '../db/schema';
import type { Clock } from '../lib/clock';
import { NotFoundError, ValidationError } from '../lib/errors';
import type { CompanyWithDomains } from './accounts.repo';
import { isAcceptableIdpUrl, parseIdpMetadata, toPem } from './saml-metadata';
import * as repo from './saml.repo';

// Setting a company's SAML identity provider (ADR 0075): the console and the admin command both
// come here. Metadata (read from its URL or given as XML) or the three values typed in.

/** Seconds reading an IdP's metadata URL may take. */
const METADATA_TIMEOUT_MS = 10_000;
const METADATA_MAX_BYTES = 1_000_000;

async function fetchMetadata(url: string): Promise<string> {
  if (!isAcceptableIdpUrl(url))
    throw new ValidationError(
      'The metadata URL must be an https:// URL (http:// only for an IdP on this machine)',
    );
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
  } catch {
    throw new ValidationError(`The IdP metadata could not be read from ${url} (no answer)`);
  }
  if (!res.ok)
    throw new ValidationError(
      `The IdP metadata could not be read from ${url} (HTTP ${res.status})`,
    );
  const text = await res.text();
  if (text.length > METADATA_MAX_BYTES)
    throw new ValidationError('The IdP metadata is larger than 1 MB');
  return text;
}

/** The stored values the input makes, the current ones kept where the input says nothing. */
export async function samlValues(
  input: SamlSettingsBody,
  current: CompanySaml | undefined,
): Promise<repo.SamlSettingsValues> {
  const enforced = input.enforced ?? current?.enforced ?? false;
  if (input.metadataUrl || input.metadataXml) {
    if (input.metadataUrl && input.metadataXml)
      throw new ValidationError('Give the metadata URL or the metadata XML, not both');
    const idp = parseIdpMetadata(input.metadataXml ?? (await fetchMetadata(input.metadataUrl!)));
    if (!isAcceptableIdpUrl(idp.ssoUrl))
      throw new ValidationError(
        'The single sign-on URL must be an https:// URL (http:// only for an IdP on this machine)',
      );
    return {
      idpEntityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificates: idp.certificates,
      metadataUrl: input.metadataUrl || null,
      enforced,
    };
  }
  const entityId = input.entityId || current?.idpEntityId;
  const ssoUrl = input.ssoUrl || current?.ssoUrl;
  const certificates = input.certificate ? [toPem(input.certificate)] : current?.certificates;
  if (!entityId || !ssoUrl || !certificates)
    throw new ValidationError(
      'Give the IdP metadata (URL or XML), or its entity ID, single sign-on URL and certificate',
    );
  if (!isAcceptableIdpUrl(ssoUrl))
    throw new ValidationError(
      'The single sign-on URL must be an https:// URL (http:// only for an IdP on this machine)',
    );
  const typed = Boolean(input.entityId || input.ssoUrl || input.certificate);
  return {
    idpEntityId: entityId,
    ssoUrl,
    certificates,
    metadataUrl: typed ? null : (current?.metadataUrl ?? null),
    enforced,
  };
}

export interface SettingsActor {
  /** Who changed it: the console's admin (with the request's origin) or the admin command. */
  event: Omit<AuditEvent, 'action' | 'companyId' | 'detail'>;
  by: string;
}

export async function setSaml(
  db: DbOrTx,
  clock: Clock,
  company: CompanyWithDomains,
  input: SamlSettingsBody,
  actor: SettingsActor,
): Promise<CompanySaml> {
  if (company.emailDomains.length === 0)
    throw new ValidationError(
      `${company.name} has no e-mail domains: single sign-on finds the company by the address's domain. Add them first.`,
    );
  const current = (await repo.samlForCompany(company.id, db))?.saml;
  const values = await samlValues(input, current);
  const saml = await repo.upsertSaml(company.id, values, clock.now(), db);
  await recordAudit(db, clock, {
    ...actor.event,
    companyId: company.id,
    action: 'sso_settings_changed',
    detail: JSON.stringify({
      by: actor.by,
      protocol: 'saml',
      idpEntityId: values.idpEntityId,
      ssoUrl: values.ssoUrl,
      metadataUrl: values.metadataUrl,
      enforced: values.enforced,
    }),
  });
  return saml;
}

export async function removeSaml(
  db: DbOrTx,
  clock: Clock,
  company: CompanyWithDomains,
  actor: SettingsActor,
): Promise<void> {
  if (!(await repo.deleteSaml(company.id, db)))
    throw new NotFoundError(`${company.name} has no SAML single sign-on`);
  await recordAudit(db, clock, {
    ...actor.event,
    companyId: company.id,
    action: 'sso_settings_changed',
    detail: `by ${actor.by}: SAML single sign-on removed`,
  });
}

/** The SP values the IdP is given, for a company (the same URLs the routes serve). */
export function spUrls(appUrl: string, companyId: number) {
  const spEntityId = `${appUrl}/api/auth/saml/${companyId}`;
  return { spEntityId, acsUrl: `${spEntityId}/acs`, spMetadataUrl: `${spEntityId}/metadata` };
}

export function samlDto(
  appUrl: string,
  companyId: number,
  saml: CompanySaml | undefined,
): SamlSettingsDto {
  return {
    companyId,
    configured: Boolean(saml),
    idpEntityId: saml?.idpEntityId ?? null,
    ssoUrl: saml?.ssoUrl ?? null,
    metadataUrl: saml?.metadataUrl ?? null,
    certificates: (saml?.certificates ?? []).map((pem) => {
      const c = new X509Certificate(pem);
      return {
        subject: c.subject.replace(/\n/g, ', '),
        validTo: new Date(c.validTo).toISOString().slice(0, 10),
      };
    }),
    enforced: saml?.enforced ?? false,
    ...spUrls(appUrl, companyId),
    updatedAt: saml?.updatedAt.toISOString() ?? null,
  };
}

import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { ValidationError } from '../lib/errors';

// Reading a SAML identity provider's metadata (ADR 0075): its entity id, the HTTP-Redirect
// single sign-on URL and its signing certificates. Only these are read; anything else is ignored.

export interface IdpSettings {
  entityId: string;
  ssoUrl: string;
  /** PEM, one block each. */
  certificates: string[];
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** A certificate as PEM, from PEM or the base64 body metadata carries; refused when unreadable. */
export function toPem(text: string): string {
  const body = text
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new ValidationError(
      'The certificate is not a readable X.509 certificate (PEM or base64)',
    );
  }
  return pem;
}

/** A URL the browser is sent to: https, or http on this machine only (development, tests). */
export function isAcceptableIdpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (
      u.protocol === 'https:' ||
      (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))
    );
  } catch {
    return false;
  }
}

export function parseIdpMetadata(xml: string): IdpSettings {
  const errors: string[] = [];
  let doc: Document | undefined;
  try {
    doc = parseXml(xml, errors);
  } catch {
    errors.push('fatal');
  }
  if (errors.length || !doc?.documentElement)
    throw new ValidationError('The IdP metadata is not well-formed XML');
  return readIdp(doc);
}

function parseXml(xml: string, errors: string[]): Document {
  return new DOMParser({
    errorHandler: {
      error: (msg: unknown) => errors.push(String(msg)),
      fatalError: (msg: unknown) => errors.push(String(msg)),
    },
  }).parseFromString(xml, 'text/xml') as unknown as Document;
}

function readIdp(doc: Document): IdpSettings {
  const select = (expr: string, node: Node = doc as unknown as Node) =>
    xpath.select(expr, node) as Node[];
  const entity = select("//*[local-name()='EntityDescriptor']")[0] as Element | undefined;
  const idp = select(
    "//*[local-name()='EntityDescriptor']/*[local-name()='IDPSSODescriptor']",
  )[0] as Element | undefined;
  if (!entity || !idp)
    throw new ValidationError(
      'The IdP metadata has no EntityDescriptor with an IDPSSODescriptor (is it the SP metadata?)',
    );
  const entityId = entity.getAttribute('entityID')?.trim() ?? '';
  if (!entityId) throw new ValidationError('The IdP metadata has no entityID');
  const sso = (select("./*[local-name()='SingleSignOnService']", idp) as Element[]).find(
    (e) => e.getAttribute('Binding') === REDIRECT_BINDING,
  );
  const ssoUrl = sso?.getAttribute('Location')?.trim() ?? '';
  if (!ssoUrl)
    throw new ValidationError(
      'The IdP metadata has no SingleSignOnService with the HTTP-Redirect binding',
    );
  const keys = (select("./*[local-name()='KeyDescriptor']", idp) as Element[]).filter((k) => {
    const use = k.getAttribute('use');
    return !use || use === 'signing';
  });
  const certificates = keys.flatMap((k) =>
    select(".//*[local-name()='X509Certificate']", k).map((c) => toPem(c.textContent ?? '')),
  );
  if (certificates.length === 0)
    throw new ValidationError('The IdP metadata has no signing certificate');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}

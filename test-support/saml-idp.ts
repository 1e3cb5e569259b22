import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';
import { closeNow, listenLocal } from './local-server';

/**
 * A person the test SAML IdP knows; signing in as `email` (any password) is them. The NameID is
 * the address; `groups` go into a `groups` attribute.
 */
export interface SamlIdpUser {
  email: string;
  givenName?: string;
  familyName?: string;
  groups?: string[];
}

/** What an answer says; tests change one thing at a time to see it refused. */
export interface SamlAnswer {
  email: string;
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  /** Default: now - 1 min (NotBefore) and now + 5 min (NotOnOrAfter). */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Default: the ACS URL. */
  recipient?: string;
  /** Default: this IdP's entity id. */
  issuer?: string;
  /** Sign with this key instead of the IdP's own (a forged answer). */
  privateKey?: string;
  /** Leave the assertion unsigned. */
  unsigned?: boolean;
}

const ns = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A fresh RSA key and self-signed certificate, made at run time (nothing checked in). */
export async function samlKeyPair(): Promise<{ privateKey: string; cert: string }> {
  const made = await generate([{ name: 'commonName', value: 'Atrium test IdP' }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    algorithm: 'sha256',
  });
  return { privateKey: made.private, cert: made.cert };
}

/**
 * A SAML 2.0 identity provider on a free local port for tests and local use: metadata, an
 * HTTP-Redirect SSO endpoint with a login page (any password), and answers posted to the SP's
 * ACS with the assertion signed by xml-crypto (the library node-saml checks signatures with)
 * with a key made at start.
 */
export class TestSamlIdp {
  readonly users = new Map<string, SamlIdpUser>();
  private server: Server | undefined;
  private keys: { privateKey: string; cert: string } | undefined;
  port = 0;

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get entityId(): string {
    return `${this.base}/metadata`;
  }

  get ssoUrl(): string {
    return `${this.base}/sso`;
  }

  /** The signing certificate, PEM. */
  get cert(): string {
    return this.keys!.cert;
  }

  addUser(user: SamlIdpUser): this {
    this.users.set(user.email.toLowerCase(), user);
    return this;
  }

  metadataXml(): string {
    const body = this.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(this.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(this.ssoUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
  }

  /** A signed SAML Response (base64, as the HTTP-POST binding carries it). */
  answer(a: SamlAnswer): string {
    const now = new Date();
    const notBefore = (a.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
    const notOnOrAfter = (a.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const issuer = a.issuer ?? this.entityId;
    const user = this.users.get(a.email.toLowerCase()) ?? { email: a.email };
    const attr = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values
        .map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`)
        .join('')}</saml:Attribute>`;
    const attributes = [
      attr('email', [user.email]),
      ...(user.givenName ? [attr('firstName', [user.givenName])] : []),
      ...(user.familyName ? [attr('lastName', [user.familyName])] : []),
      ...(user.groups ? [attr('groups', user.groups)] : []),
    ].join('');
    const id = (p: string) => `_${p}${randomBytes(16).toString('hex')}`;
    const assertion = `<saml:Assertion xmlns:saml="${ns.saml}" ID="${id('a')}" Version="2.0" IssueInstant="${now.toISOString()}"><saml:Issuer>${esc(issuer)}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(user.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(a.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(a.recipient ?? a.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${esc(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id('s')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    const response = `<samlp:Response xmlns:samlp="${ns.samlp}" xmlns:saml="${ns.saml}" ID="${id('r')}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${esc(a.acsUrl)}" InResponseTo="${esc(a.inResponseTo)}"><saml:Issuer>${esc(issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    const xml = a.unsigned ? response : this.sign(response, a.privateKey);
    return Buffer.from(xml).toString('base64');
  }

  private sign(xml: string, privateKey?: string): string {
    const sig = new SignedXml({
      privateKey: privateKey ?? this.keys!.privateKey,
      publicCert: this.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/2001/10/xml-exc-c14n#',
      ],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, {
      location: {
        reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
        action: 'after',
      },
    });
    return sig.getSignedXml();
  }

  /** Reads an HTTP-Redirect AuthnRequest: its ID, ACS URL and issuer (the SP's entity id). */
  static readRequest(url: string): {
    id: string;
    acsUrl: string;
    issuer: string;
    relayState: string;
  } {
    const u = new URL(url);
    const xml = inflateRawSync(
      Buffer.from(u.searchParams.get('SAMLRequest') ?? '', 'base64'),
    ).toString();
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const root = doc.documentElement!;
    const issuer = doc.getElementsByTagNameNS(ns.saml, 'Issuer')[0]?.textContent ?? '';
    return {
      id: root.getAttribute('ID') ?? '',
      acsUrl: root.getAttribute('AssertionConsumerServiceURL') ?? '',
      issuer,
      relayState: u.searchParams.get('RelayState') ?? '',
    };
  }

  async start(): Promise<this> {
    this.keys ??= await samlKeyPair();
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, type, body }) => {
          res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
          res.end(body);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
    this.port = await listenLocal(this.server);
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await closeNow(server);
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; type: string; body: string }> {
    const url = new URL(req.url ?? '/', this.base);
    const html = (body: string) => ({ status: 200, type: 'text/html; charset=utf-8', body });
    if (url.pathname === '/metadata')
      return { status: 200, type: 'application/samlmetadata+xml', body: this.metadataXml() };
    if (url.pathname === '/sso' && req.method === 'GET') {
      const request = TestSamlIdp.readRequest(url.href);
      return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head><body>
<main><h1>Test SAML IdP</h1>
<form method="post" action="/login">
<input type="hidden" name="id" value="${esc(request.id)}">
<input type="hidden" name="acs" value="${esc(request.acsUrl)}">
<input type="hidden" name="audience" value="${esc(request.issuer)}">
<input type="hidden" name="relayState" value="${esc(request.relayState)}">
<label>E-mail <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></main></body></html>`);
    }
    if (url.pathname === '/login' && req.method === 'POST') {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      const form = new URLSearchParams(raw);
      const email = form.get('email') ?? '';
      if (!this.users.has(email.toLowerCase()))
        return { status: 401, type: 'text/plain', body: 'Unknown user' };
      const acs = form.get('acs') ?? '';
      const response = this.answer({
        email,
        inResponseTo: form.get('id') ?? '',
        acsUrl: acs,
        audience: form.get('audience') ?? '',
      });
      // The HTTP-POST binding: a form the browser posts to the SP's ACS at once.
      return html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head>
<body onload="document.forms[0].submit()"><form method="post" action="${esc(acs)}">
<input type="hidden" name="SAMLResponse" value="${esc(response)}">
<input type="hidden" name="RelayState" value="${esc(form.get('relayState') ?? '')}">
<noscript><button type="submit">Continue</button></noscript></form></body></html>`);
    }
    return { status: 404, type: 'text/plain', body: 'Not found' };
  }
}

import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP peer on a free local port: the product sends through nodemailer exactly as in
 * production, and tests read what arrived.
 */
export class SmtpPeer {
  readonly mails: CaughtMail[] = [];
  /** SMTP sessions that ended without sending (a client checking the server, nodemailer's verify). */
  probes = 0;
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  private held: { promise: Promise<void>; release: () => void } | null = null;
  private readonly sending = new Set<string>();
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onMailFrom: (_address, session, callback) => {
        this.sending.add(session.id);
        if (this.held) void this.held.promise.then(() => callback());
        else callback();
      },
      onClose: (session) => {
        if (!this.sending.delete(session.id)) this.probes += 1;
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
            for (const rcpt of to) {
              this.mails.push({
                to: rcpt,
                from: parsed.from?.text ?? '',
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
              });
            }
            const w = this.waiters;
            this.waiters = [];
            w.forEach((f) => f());
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Holds every mail at MAIL FROM until `release()`: a client sending one waits meanwhile. */
  hold(): void {
    let release = () => undefined as void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.held = { promise, release };
  }

  release(): void {
    this.held?.release();
    this.held = null;
  }

  /** Mails to one address, oldest first. */
  to(address: string): CaughtMail[] {
    return this.mails.filter((m) => m.to === address.toLowerCase());
  }

  /** Waits for the n-th mail (1-based) to an address that matches, up to timeoutMs. */
  async waitFor(
    address: string,
    opts: { count?: number; match?: (m: CaughtMail) => boolean; timeoutMs?: number } = {},
  ): Promise<CaughtMail> {
    const count = opts.count ?? 1;
    const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
    for (;;) {
      const found = this.to(address).filter(opts.match ?? (() => true));
      if (found.length >= count) return found[count - 1]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail #${count} to ${address} within the time limit`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}

/** The first absolute link in a mail's text that contains `pathPart`. */
export function linkIn(mail: CaughtMail, pathPart: string): string {
  const m = mail.text.match(new RegExp(`https?://\\S*${pathPart.replace(/[/?]/g, '\\$&')}\\S*`));
  if (!m) throw new Error(`no link with ${pathPart} in mail "${mail.subject}"`);
  return m[0];
}

/** The six-digit code in a mail's text. */
export function codeIn(mail: CaughtMail): string {
  const m = mail.text.match(/\b(\d{6})\b/);
  if (!m) throw new Error(`no code in mail "${mail.subject}"`);
  return m[1]!;
}

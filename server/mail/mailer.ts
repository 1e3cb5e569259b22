import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: the server log by default, an SMTP server when SMTP_URL is set. */
export interface Mailer {
  readonly kind: 'console' | 'smtp';
  send(mail: Mail): Promise<void>;
  /**
   * Checks that a mail could be sent now (SMTP: connect, greet, authenticate), without sending
   * one: a flow that sends nothing for an unknown address fails the same way as one that does.
   */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** An SMTP server that accepts and never answers fails a send in about this long, not minutes. */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
};

/**
 * A mail as a block that stands out in a terminal among the log lines, so a local user finds the
 * link or the code at a glance. The text is printed as is, links whole (a terminal makes them
 * clickable).
 */
export function consoleMailBlock(mail: Mail, color: boolean): string {
  const rule = '═'.repeat(72);
  const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[22m` : s);
  const accent = (s: string) => (color ? `\x1b[36m${s}\x1b[39m` : s);
  return [
    '',
    accent(rule),
    accent(`  MAIL to ${bold(mail.to)}`),
    accent(`  Subject: ${bold(mail.subject)}`),
    accent(rule),
    ...mail.text.split('\n').map((line) => `  ${line}`),
    accent(rule),
    '',
    '',
  ].join('\n');
}

/**
 * Prints each mail (with its link or code) to the server's output as a block, so a local user can
 * sign up with no mail server. A log line records that it was sent.
 */
export function consoleMailer(
  log: Pick<Logger, 'info'>,
  write: (text: string) => void = (text) => void process.stdout.write(text),
  color = Boolean(process.stdout.isTTY),
): Mailer {
  return {
    kind: 'console',
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject }, 'mail printed to the console');
      write(consoleMailBlock(mail, color));
    },
    async probe() {},
    async close() {},
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async probe() {
      await transport.verify();
    },
    async close() {
      transport.close();
    },
  };
}

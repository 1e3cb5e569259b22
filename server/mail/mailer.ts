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
  close(): Promise<void>;
}

/**
 * Prints each mail (with its link or code) to the server's output as plain text, so a local
 * user can sign up with no mail server. A log line records that it was sent.
 */
export function consoleMailer(
  log: Pick<Logger, 'info'>,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Mailer {
  return {
    kind: 'console',
    async send(mail) {
      log.info({ to: mail.to, subject: mail.subject }, 'mail printed to the console');
      write(
        `\n----- mail to ${mail.to} -----\nSubject: ${mail.subject}\n\n${mail.text}\n----- end of mail -----\n\n`,
      );
    },
    async close() {},
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async close() {
      transport.close();
    },
  };
}

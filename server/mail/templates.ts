import { OTP_VALID_MINUTES } from '@contract/constants';
import type { Mail } from './mailer';

// The mails Atrium sends: a plain-text body (what the console transport prints, and what
// text-only clients show) and an HTML body with the same words. Each names the product and says
// how long its link or code is valid. Links are absolute (built from APP_URL by the caller).

const PRODUCT = 'Atrium';

/** Names come from users: never trust them inside HTML. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface Body {
  greeting: string;
  /** Paragraphs before the action. */
  intro: string[];
  action?: { label: string; url: string } | { code: string };
  /** Paragraphs after the action. */
  outro: string[];
}

function render(to: string, subject: string, body: Body): Mail {
  const text: string[] = [body.greeting, '', ...body.intro.flatMap((p) => [p, ''])];
  let actionHtml = '';
  if (body.action && 'url' in body.action) {
    // The link stands alone on its line so no mail client glues punctuation to it.
    text.push(`${body.action.label}:`, body.action.url, '');
    const url = escapeHtml(body.action.url);
    actionHtml = `<p style="margin:24px 0"><a href="${url}" style="background:#111827;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(body.action.label)}</a></p>
<p style="font-size:13px;color:#6b7280">If the button does not work, copy this address into your browser:<br><a href="${url}">${url}</a></p>`;
  } else if (body.action) {
    text.push(body.action.code, '');
    actionHtml = `<p style="font-size:32px;letter-spacing:8px;font-weight:bold;margin:24px 0">${escapeHtml(body.action.code)}</p>`;
  }
  text.push(...body.outro.flatMap((p) => [p, '']), `The ${PRODUCT} team`);
  const para = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#111827;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${PRODUCT}</h1>
${para(body.greeting)}
${body.intro.map(para).join('\n')}
${actionHtml}
${body.outro.map(para).join('\n')}
<p>The ${PRODUCT} team</p>
</body></html>`;
  return { to, subject, text: text.join('\n'), html };
}

const hi = (firstName: string) => `Hello ${firstName},`;

export function verificationMail(to: string, firstName: string, link: string): Mail {
  return render(to, `Verify your email for ${PRODUCT}`, {
    greeting: hi(firstName),
    intro: [
      `Thanks for signing up for ${PRODUCT}. Please confirm that this is your email address.`,
    ],
    action: { label: 'Verify your email', url: link },
    outro: [
      'This link is valid for 24 hours and can be used once. If it has expired, sign in and we will send you a new one.',
      `If you did not create an ${PRODUCT} account, you can ignore this email.`,
    ],
  });
}

/** Sent instead of a verification link when someone registers with an address that has an account. */
export function accountExistsMail(
  to: string,
  firstName: string,
  signInUrl: string,
  resetUrl: string,
): Mail {
  return render(to, `Someone tried to register with your ${PRODUCT} address`, {
    greeting: hi(firstName),
    intro: [
      `Someone (perhaps you) tried to create a new ${PRODUCT} account with this email address, but you already have one. No new account was created.`,
      `Sign in at ${signInUrl} or, if you have forgotten your password, reset it at ${resetUrl} (a reset link is valid for 1 hour).`,
    ],
    outro: ['If this was not you, you can ignore this email: your account has not changed.'],
  });
}

export function codeMail(to: string, firstName: string, code: string): Mail {
  return render(to, `Your ${PRODUCT} sign-in code`, {
    greeting: hi(firstName),
    intro: [`Use this code to finish signing in to ${PRODUCT}:`],
    action: { code },
    outro: [
      `The code is valid for ${OTP_VALID_MINUTES} minutes and can be used once. Signing in again sends a new code and voids this one.`,
      'If you did not try to sign in, someone may know your password: please change it.',
    ],
  });
}

export function resetMail(to: string, firstName: string, link: string): Mail {
  return render(to, `Reset your ${PRODUCT} password`, {
    greeting: hi(firstName),
    intro: [`We received a request to reset the password of your ${PRODUCT} account.`],
    action: { label: 'Reset your password', url: link },
    outro: [
      'This link is valid for 1 hour and can be used once. Resetting your password signs you out everywhere.',
      'If you did not ask for this, you can ignore this email: your password has not changed.',
    ],
  });
}

export function passwordChangedMail(to: string, firstName: string, resetUrl: string): Mail {
  return render(to, `Your ${PRODUCT} password was changed`, {
    greeting: hi(firstName),
    intro: [
      `The password of your ${PRODUCT} account was just changed, and your other sessions were signed out.`,
      `If this was not you, reset your password now at ${resetUrl} (a reset link is valid for 1 hour).`,
    ],
    outro: [],
  });
}

/** A company admin invites someone: the link opens sign-up with the address filled in. */
export function invitationMail(
  to: string,
  company: string,
  inviter: string,
  signUpUrl: string,
): Mail {
  return render(to, `You are invited to ${company} on ${PRODUCT}`, {
    greeting: 'Hello,',
    intro: [
      `${inviter} invited you to join ${company} on ${PRODUCT}, the workspace where your company works with AI agents.`,
    ],
    action: { label: 'Create your account', url: signUpUrl },
    outro: [
      'The link opens the sign-up form with this address filled in; we will then send you a link to confirm it.',
      'If you did not expect this invitation, you can ignore this email.',
    ],
  });
}

/** To a company's admins when a company or module budget reaches 75% or 90% (ADR 0070). */
export function budgetWarningMail(
  to: string,
  company: string,
  what: string,
  percent: number,
  resetsOn: string,
  consoleUrl: string,
): Mail {
  return render(to, `${company} has used ${percent}% of its monthly ${what} budget`, {
    greeting: 'Hello,',
    intro: [
      `${company} has used ${percent}% of its monthly ${what} budget on ${PRODUCT}. When it is used up, sends are refused until it resets on ${resetsOn}.`,
    ],
    action: { label: 'Open the budgets', url: consoleUrl },
    outro: ['You receive this because you are an admin of the company.'],
  });
}

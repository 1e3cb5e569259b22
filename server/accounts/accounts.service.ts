import type { FastifyBaseLogger } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  type ChangePasswordBody,
  type CompanyDto,
  type ForgotPasswordBody,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  type UpdateProfileBody,
  type UserDto,
  type VerifyOtpBody,
} from '@contract/accounts';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { User } from '../db/schema';
import { recordAudit, type AuditEvent, type AuditOrigin } from '../audit/audit';
import type { Clock } from '../lib/clock';
import { ssoRequiredMessage } from '@contract/sso';
import { INVITATION_MESSAGES } from '@contract/invitations';
import { ForbiddenError, MailFailedError, UnauthorizedError, ValidationError } from '../lib/errors';
import type { Mail, Mailer } from '../mail/mailer';
import type { Bus } from '../realtime/bus';
import {
  accountExistsMail,
  codeMail,
  passwordChangedMail,
  resetMail,
  verificationMail,
} from '../mail/templates';
import * as repo from './accounts.repo';
import { notifyInvitationAccepted } from '../notifications/invitation-accepted';
import type { SsoService } from './sso.service';
import { acceptInvitationByToken, liveInvitation } from './invitations';
import { dummyHash, hashPassword, verifyPassword } from './passwords';
import {
  LIMITS,
  allow,
  consume,
  countFailure,
  ensureUnder,
  limitReached,
  resetLimit,
} from './rate-limit';
import {
  createSession,
  destroySession,
  destroyUserSessions,
  type CurrentSession,
  announceSessionsEnded,
} from './sessions';
import {
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MS,
  RESET_TTL_MS,
  VERIFICATION_TTL_MS,
  linkTokenHash,
  newLinkToken,
  newOtpCode,
  otpHash,
  sameDigest,
} from './tokens';

// The account rules of the spec (ARCHITECTURE.md section 4). Routes do HTTP; this holds the rules and the transactions; the repo holds
// the SQL. Mail and bus messages go out only after the transaction that justifies them commits.

const MSG = {
  badCredentials: 'Invalid email or password',
  notVerified:
    "Please verify your email before signing in. We've sent a new verification link to your email.",
  signInAgain: 'Your sign-in has expired. Please sign in again to get a new code.',
  codeExpired: 'This code has expired or was already used. Please sign in again to get a new code.',
  codeVoided: 'Too many incorrect codes. Please sign in again to get a new code.',
  wrongCode: (left: number) => `Invalid code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
  verifyLinkInvalid: 'This verification link is invalid or has already been used.',
  verifyLinkExpired: 'This verification link has expired. Sign in to get a new one.',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  companyMissing: 'Company not found',
  wrongCurrentPassword: 'Current password is incorrect',
  disabled: "This account has been disabled. Ask your company's admin to enable it.",
  adminCannotMove:
    'A company admin cannot change company. Ask an operator to remove the admin role first.',
};

export function toUserDto(u: User): UserDto {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phone: u.phone,
    companyId: u.companyId,
    role: u.role as UserDto['role'],
  };
}

/** An event a user causes about their own account, in their company's log. */
const selfEvent = (u: Pick<User, 'id' | 'email' | 'companyId'>) => ({
  companyId: u.companyId,
  actorId: u.id,
  actorEmail: u.email,
  target: u.email,
});

/** The domain of an address (addresses are stored lower-cased). */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** What the accounts service uses of the app's parts (AppDeps fits; app.ts is not imported). */
export interface AccountsDeps {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  clock: Clock;
}

export class AccountsService {
  /** Mails on their way: awaited on close so a graceful shutdown does not drop them. */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deps: AccountsDeps,
    private readonly log: FastifyBaseLogger,
    private readonly sso: Pick<SsoService, 'enforcedFor'>,
  ) {}

  /**
   * A company that enforces its identity provider (ADR 0034) takes no password, code or reset
   * for its domains: decided by the domain alone, so the refusal reveals no account.
   */
  private async refuseIfSsoEnforced(email: string): Promise<void> {
    const company = await this.sso.enforcedFor(email);
    if (company) throw new ForbiddenError(ssoRequiredMessage(company), 'SSO_REQUIRED');
  }

  private get db() {
    return this.deps.database.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }
  private link(path: string, token: string): string {
    return `${this.deps.config.appUrl}${path}?token=${encodeURIComponent(token)}`;
  }

  /**
   * Sends a mail without holding the answer: the time an answer takes must not depend on whether
   * a mail went out (that would tell which addresses have accounts). Only the recipient and the
   * subject are ever logged, never the body with its link or code.
   */
  private deliver(mail: Mail): void {
    const p = this.deps.mailer
      .send(mail)
      .catch((err: unknown) => {
        this.log.error(
          {
            to: mail.to,
            subject: mail.subject,
            reason: err instanceof Error ? err.message : 'unknown',
          },
          'mail delivery failed',
        );
      })
      .finally(() => this.sending.delete(p));
    this.sending.add(p);
  }

  /** Work done after the answer (awaited by drain at shutdown); a failure is logged. */
  private later(work: () => Promise<void>): void {
    const p = work()
      .catch((err: unknown) => this.log.error({ err }, 'work after the answer failed'))
      .finally(() => this.sending.delete(p));
    this.sending.add(p);
  }

  /**
   * Sends a mail the answer depends on (a link or a code the user waits for) and fails the request
   * with MAIL_FAILED when it cannot go out: the user is told, instead of waiting for nothing.
   */
  private async sendNow(mail: Mail): Promise<void> {
    try {
      await this.deps.mailer.send(mail);
    } catch (err) {
      this.log.error({ to: mail.to, subject: mail.subject, err }, 'mail delivery failed');
      throw new MailFailedError();
    }
  }

  /**
   * For the answers that send nothing (an unknown address, a capped notice): the mail service is
   * checked all the same, so a failure reads the same whatever the address.
   */
  private async checkMail(): Promise<void> {
    try {
      await this.deps.mailer.probe();
    } catch (err) {
      this.log.error({ err }, 'mail service unavailable');
      throw new MailFailedError();
    }
  }

  async drain(): Promise<void> {
    // Work after an answer may start a mail of its own: until nothing is left.
    while (this.sending.size) await Promise.allSettled([...this.sending]);
  }

  /** Appends an event to the audit log (after the change it records has committed). */
  private audit(event: AuditEvent): Promise<void> {
    return recordAudit(this.db, this.deps.clock, event);
  }

  /** The company a failed sign-in of an address concerns: the first one owning its domain. */
  private async companyOfAddress(email: string): Promise<number | null> {
    return (await repo.companiesForDomain(domainOf(email), this.db))[0]?.id ?? null;
  }

  private endSessions(sids: string[]): Promise<void> {
    return announceSessionsEnded(this.deps.bus, sids);
  }

  async register(body: RegisterBody, origin: AuditOrigin & { ip: string }): Promise<void> {
    const { ip } = origin;
    // First: a company that enforces SSO sends its people to its provider (ADR 0034).
    await this.refuseIfSsoEnforced(body.email);
    // Sign-up is open to the domains some company owns (docs/decisions/0020-roles-and-admin-api.md).
    const owners = await repo.companiesForDomain(domainOf(body.email), this.db);
    if (owners.length === 0) {
      throw new ValidationError(ACCOUNT_MESSAGES.emailDomain, {
        email: ACCOUNT_MESSAGES.emailDomain,
      });
    }
    await consume(this.deps.bus, LIMITS.registerPerIp, ip);
    // Hashed whether or not the address is taken: both answers cost the same.
    const password = await hashPassword(body.password);
    // A link's invitation must still be valid (ADR 0014): refused before anything is written.
    const now = this.now();
    const linked = body.invitation
      ? await liveInvitation(this.db, body.invitation, now)
      : undefined;
    if (linked && linked.email !== body.email)
      throw new ValidationError(INVITATION_MESSAGES.otherAddress, {
        email: INVITATION_MESSAGES.otherAddress,
      });
    // An invitation names the company; otherwise the first company owning the domain.
    const invitation = linked ?? (await repo.pendingInvitation(body.email, this.db, now));
    const company = owners.find((c) => c.id === invitation?.companyId) ?? owners[0]!;
    const created = await this.db.transaction(async (tx) => {
      const user = await repo.insertUser(
        {
          email: body.email,
          password,
          firstName: body.firstName,
          lastName: body.lastName,
          companyId: company.id,
        },
        tx,
      );
      if (!user) return null;
      // A link's invitation is taken once: a second sign-up with it fails and writes nothing.
      if (linked && body.invitation)
        await acceptInvitationByToken(tx, body.invitation, body.email, now);
      else if (invitation?.companyId === company.id)
        await repo.acceptInvitation(invitation.id, this.now(), tx);
      const { token, hash } = newLinkToken();
      await repo.insertVerificationToken(
        user.id,
        hash,
        new Date(this.now().getTime() + VERIFICATION_TTL_MS),
        tx,
      );
      return { user, token };
    });
    if (created) {
      try {
        await this.sendNow(
          verificationMail(
            created.user.email,
            created.user.firstName,
            this.link('/verify-email', created.token),
          ),
        );
      } catch (err) {
        // Without its link the account could never be confirmed: it is not kept, so signing up
        // again later works as the first time.
        await repo.deleteUser(created.user.id, this.db);
        throw err;
      }
      if (invitation?.companyId === company.id) {
        await this.audit({
          ...origin,
          action: 'invitation_accepted',
          companyId: company.id,
          actorId: created.user.id,
          actorEmail: created.user.email,
          target: created.user.email,
        });
        await notifyInvitationAccepted(
          { db: this.db, bus: this.deps.bus },
          {
            invitedBy: invitation.invitedBy,
            companyId: company.id,
            invitee: created.user,
            now: this.now(),
          },
        ).catch((err: unknown) =>
          this.log.warn({ err }, 'invitation accepted notification failed'),
        );
      }
      return;
    }
    // The address has an account: answer as for a new one, and tell the owner instead.
    const owner = await repo.findUserByEmail(body.email, this.db);
    // Capped without a sign, so repeated sign-ups cannot flood the owner's mailbox.
    if (owner && (await allow(this.deps.bus, LIMITS.accountExistsPerAddress, owner.email))) {
      const url = this.deps.config.appUrl;
      await this.sendNow(
        accountExistsMail(owner.email, owner.firstName, `${url}/auth`, `${url}/forgot-password`),
      );
    } else await this.checkMail();
  }

  async verifyEmail(token: string, origin: AuditOrigin): Promise<void> {
    const hash = linkTokenHash(token);
    if (!hash) throw new ValidationError(MSG.verifyLinkInvalid);
    const now = this.now();
    const outcome = await this.db.transaction(async (tx) => {
      const t = await repo.takeVerificationToken(hash, tx);
      if (!t) return 'invalid' as const;
      // An expired token is deleted all the same (it is useless), then refused.
      if (t.expiresAt <= now) return 'expired' as const;
      const user = await repo.updateUser(t.userId, { isEmailVerified: true }, now, tx);
      await repo.deleteVerificationTokens(t.userId, tx);
      return user;
    });
    if (outcome === 'invalid') throw new ValidationError(MSG.verifyLinkInvalid);
    if (outcome === 'expired') throw new ValidationError(MSG.verifyLinkExpired);
    if (outcome) {
      await this.audit({
        ...origin,
        action: 'email_verified',
        companyId: outcome.companyId,
        actorId: outcome.id,
        actorEmail: outcome.email,
        target: outcome.email,
      });
    }
  }

  /**
   * The password step. Success mails a code and returns a new 'pending' session that grants only
   * the code step; the session the caller had (if any) ends.
   */
  async login(
    body: LoginBody,
    origin: AuditOrigin & { ip: string },
    previous: CurrentSession | null,
  ): Promise<{ token: string }> {
    const { bus } = this.deps;
    const { ip } = origin;
    const pair = `${body.email}|${ip}`;
    await this.refuseIfSsoEnforced(body.email);
    await ensureUnder(bus, LIMITS.passwordPerIp, ip);
    await ensureUnder(bus, LIMITS.passwordPerAddressAndIp, pair);
    // Guessing spread over many client addresses: past the limit, a wrong password is refused
    // with it, but the right one still goes on to the mailed code, which only the owner reads
    // (ADR 0025). Locking the address had kept the owner out until a password reset.
    const guessed = await limitReached(bus, LIMITS.passwordPerAddress, body.email);
    const user = await repo.findUserByEmail(body.email, this.db);
    // An unknown address is checked against a dummy hash: the same argon2 work, the same answer.
    const passwordOk = await verifyPassword(user?.password ?? (await dummyHash()), body.password);
    if (!user || !passwordOk) {
      await countFailure(bus, LIMITS.passwordPerIp, ip);
      await countFailure(bus, LIMITS.passwordPerAddressAndIp, pair);
      await countFailure(bus, LIMITS.passwordPerAddress, body.email);
      // One row per lockout (ADR 0016): the first refused guess records it; the others of the
      // same window are refused without a row each (a guesser would flood the log).
      if (!guessed || (await guessed.first())) {
        await this.audit({
          ...origin,
          action: guessed ? 'lockout' : 'sign_in_failed',
          companyId: user ? user.companyId : await this.companyOfAddress(body.email),
          actorId: user?.id ?? null,
          actorEmail: body.email,
          target: body.email,
          detail: guessed
            ? `${LIMITS.passwordPerAddress.max} wrong passwords for this address: wrong ones are refused for ${Math.ceil(guessed.resetMs / 60_000)} min, the right one still gets the code`
            : 'wrong e-mail or password',
        });
      }
      guessed?.refuse();
      throw new UnauthorizedError(MSG.badCredentials);
    }
    await resetLimit(bus, LIMITS.passwordPerAddressAndIp, pair);
    if (user.disabledAt) {
      await this.audit({
        ...origin,
        action: 'sign_in_failed',
        companyId: user.companyId,
        actorId: user.id,
        actorEmail: user.email,
        target: user.email,
        detail: 'account disabled',
      });
      throw new ForbiddenError(MSG.disabled, 'ACCOUNT_DISABLED');
    }

    if (!user.isEmailVerified) {
      await consume(bus, LIMITS.verificationPerAddress, user.email);
      const { token, hash } = newLinkToken();
      await repo.insertVerificationToken(
        user.id,
        hash,
        new Date(this.now().getTime() + VERIFICATION_TTL_MS),
        this.db,
      );
      await this.sendNow(
        verificationMail(user.email, user.firstName, this.link('/verify-email', token)),
      );
      throw new ForbiddenError(MSG.notVerified, 'EMAIL_NOT_VERIFIED');
    }

    await consume(bus, LIMITS.codesPerAddress, user.email);
    const code = newOtpCode();
    const expiresAt = new Date(this.now().getTime() + OTP_TTL_MS);
    const session = await this.db.transaction(async (tx) => {
      await repo.voidCodes(user.id, tx);
      await repo.insertCode(
        user.id,
        otpHash(this.deps.config.sessionSecret, user.id, code),
        expiresAt,
        tx,
      );
      if (previous) await destroySession(tx, previous.sid);
      return createSession(tx, this.deps.clock, { userId: user.id, stage: 'pending' });
    });
    if (previous) await this.endSessions([previous.sid]);
    const event = { ...origin, ...selfEvent(user) };
    try {
      await this.sendNow(codeMail(user.email, user.firstName, code));
    } catch (err) {
      await this.audit({ ...event, action: 'code_failed', detail: 'the code could not be mailed' });
      throw err;
    }
    await this.audit({ ...event, action: 'code_sent' });
    return { token: session.token };
  }

  /** The code step: only a pending session may take it; success rotates to a new full session. */
  async verifyOtp(
    body: VerifyOtpBody,
    session: CurrentSession | null,
    origin: AuditOrigin,
  ): Promise<{ token: string; user: UserDto }> {
    if (!session || session.stage !== 'pending') throw new UnauthorizedError(MSG.signInAgain);
    const user = await repo.findUserById(session.userId, this.db);
    if (!user) throw new UnauthorizedError(MSG.signInAgain);
    // Disabled between the two steps: the code no longer signs in.
    if (user.disabledAt) throw new ForbiddenError(MSG.disabled, 'ACCOUNT_DISABLED');
    // The code belongs to the address that passed the password step, and to no other.
    if (user.email !== body.email)
      throw new ValidationError(MSG.signInAgain, { otp: MSG.signInAgain });
    const now = this.now();
    const presented = otpHash(this.deps.config.sessionSecret, user.id, body.otp);
    const outcome = await this.db.transaction(async (tx) => {
      const code = await repo.liveCodeForUpdate(user.id, tx);
      if (!code || code.expiresAt <= now) return { kind: 'expired' as const };
      if (!sameDigest(code.token, presented)) {
        const attempts = await repo.countWrongCode(code.id, OTP_MAX_ATTEMPTS, tx);
        return attempts >= OTP_MAX_ATTEMPTS
          ? { kind: 'voided' as const }
          : { kind: 'wrong' as const, left: OTP_MAX_ATTEMPTS - attempts };
      }
      if (!(await repo.useCode(code.id, tx))) return { kind: 'expired' as const };
      await repo.updateUser(user.id, { lastSignInAt: now }, now, tx);
      await destroySession(tx, session.sid);
      const full = await createSession(tx, this.deps.clock, { userId: user.id, stage: 'full' });
      return { kind: 'ok' as const, token: full.token };
    });
    // Thrown after the transaction so a wrong guess stays counted.
    const refuse = (message: string) => new ValidationError(message, { otp: message });
    const event = { ...origin, ...selfEvent(user) };
    if (outcome.kind === 'wrong' || outcome.kind === 'voided') {
      await this.audit({ ...event, action: 'code_failed', detail: 'wrong code' });
    }
    if (outcome.kind === 'voided') {
      await this.audit({ ...event, action: 'lockout', detail: 'too many wrong codes' });
    }
    if (outcome.kind === 'ok') await this.audit({ ...event, action: 'sign_in' });
    switch (outcome.kind) {
      case 'expired':
        throw refuse(MSG.codeExpired);
      case 'voided':
        throw refuse(MSG.codeVoided);
      case 'wrong':
        throw refuse(MSG.wrongCode(outcome.left));
      case 'ok':
        await this.endSessions([session.sid]);
        return { token: outcome.token, user: toUserDto(user) };
    }
  }

  async currentUser(userId: string): Promise<UserDto> {
    const user = await repo.findUserById(userId, this.db);
    if (!user) throw new UnauthorizedError();
    return toUserDto(user);
  }

  async logout(session: CurrentSession | null): Promise<void> {
    if (!session) return;
    await destroySession(this.db, session.sid);
    await this.endSessions([session.sid]);
  }

  /**
   * Always the same answer, after the same work whatever the address (the lookup, then a check
   * that the mail service answers): the link is written and mailed after the answer, only when
   * the address has an account. Waiting for it had made known addresses 60 ms slower to answer.
   */
  async forgotPassword(body: ForgotPasswordBody): Promise<void> {
    await this.refuseIfSsoEnforced(body.email);
    await consume(this.deps.bus, LIMITS.forgotPerAddress, body.email);
    const user = await repo.findUserByEmail(body.email, this.db);
    await this.checkMail();
    if (!user) return;
    this.later(async () => {
      const { token, hash } = newLinkToken();
      await repo.insertResetToken(
        user.id,
        hash,
        new Date(this.now().getTime() + RESET_TTL_MS),
        this.db,
      );
      this.deliver(resetMail(user.email, user.firstName, this.link('/reset-password', token)));
    });
  }

  /** Sets the new password, and ends every session of the user (the caller's too). */
  async resetPassword(body: ResetPasswordBody, origin: AuditOrigin): Promise<void> {
    const hash = linkTokenHash(body.token);
    const invalid = () =>
      new ValidationError(MSG.resetLinkInvalid, { token: MSG.resetLinkInvalid });
    // A dead link is refused before the argon2 work, which must not be free to trigger.
    const live = hash ? await repo.findLiveResetToken(hash, this.now(), this.db) : undefined;
    if (!hash || !live) throw invalid();
    // A link mailed before the company enforced its provider no longer sets a password.
    await this.refuseIfSsoEnforced(live.email);
    const password = await hashPassword(body.password);
    const now = this.now();
    const sids = await this.db.transaction(async (tx) => {
      const t = await repo.takeResetToken(hash, now, tx);
      if (!t) return null;
      // The link came through the mailbox, which proves the address as well as a verification link.
      await repo.updateUser(t.userId, { password, isEmailVerified: true }, now, tx);
      await repo.voidResetTokens(t.userId, tx);
      await repo.voidCodes(t.userId, tx);
      const user = await repo.findUserById(t.userId, tx);
      return {
        sids: await destroyUserSessions(tx, t.userId, null),
        email: user?.email ?? '',
        userId: t.userId,
        companyId: user?.companyId ?? null,
      };
    });
    if (!sids) throw invalid();
    await this.endSessions(sids.sids);
    await this.audit({
      ...origin,
      action: 'password_reset',
      companyId: sids.companyId,
      actorId: sids.userId,
      actorEmail: sids.email,
      target: sids.email,
    });
    // The link proved the mailbox: guessing by others no longer keeps the owner out.
    await resetLimit(this.deps.bus, LIMITS.passwordPerAddress, sids.email);
  }

  async updateProfile(
    userId: string,
    body: UpdateProfileBody,
    origin: AuditOrigin,
  ): Promise<UserDto> {
    const user = await repo.findUserById(userId, this.db);
    if (!user) throw new UnauthorizedError();
    // The address is the sign-in identity and was proved by mail: it cannot be edited here.
    if (body.email && body.email.toLowerCase() !== user.email) {
      throw new ValidationError(ACCOUNT_MESSAGES.emailCannotChange, {
        email: ACCOUNT_MESSAGES.emailCannotChange,
      });
    }
    // Only a company owning the user's domain: Settings cannot move anyone into another company.
    if (
      body.companyId != null &&
      body.companyId !== user.companyId &&
      !(await repo.companiesForDomain(domainOf(user.email), this.db)).some(
        (c) => c.id === body.companyId,
      )
    ) {
      throw new ValidationError(MSG.companyMissing, { companyId: MSG.companyMissing });
    }
    // An admin's role is of their company: moving would carry it into another one.
    if (
      body.companyId !== undefined &&
      body.companyId !== user.companyId &&
      user.role === 'admin'
    ) {
      throw new ValidationError(MSG.adminCannotMove, { companyId: MSG.adminCannotMove });
    }
    const updated = await repo.updateUser(
      userId,
      {
        firstName: body.firstName,
        lastName: body.lastName,
        phone: body.phone ?? null,
        companyId: body.companyId === undefined ? user.companyId : body.companyId,
      },
      this.now(),
      this.db,
    );
    if (!updated) throw new UnauthorizedError();
    const changed = (['firstName', 'lastName', 'phone', 'companyId'] as const).filter(
      (k) => updated[k] !== user[k],
    );
    if (changed.length > 0) {
      const event = { ...origin, actorId: user.id, actorEmail: user.email, target: user.email };
      const detail = `changed ${changed.join(', ')}`;
      await this.audit({ ...event, action: 'settings_changed', companyId: user.companyId, detail });
      // A move is in the log of both companies.
      if (changed.includes('companyId')) {
        const to = `company changed from ${user.companyId ?? 'none'} to ${updated.companyId ?? 'none'}`;
        await this.audit({
          ...event,
          action: 'settings_changed',
          companyId: updated.companyId,
          detail: to,
        });
      }
    }
    return toUserDto(updated);
  }

  /** Changes the password; every other session of the user ends, this one stays. */
  async changePassword(
    session: CurrentSession,
    body: ChangePasswordBody,
    origin: AuditOrigin & { ip: string },
  ): Promise<void> {
    const { bus } = this.deps;
    const { ip } = origin;
    const user = await repo.findUserById(session.userId, this.db);
    if (!user) throw new UnauthorizedError();
    const pair = `${user.email}|${ip}`;
    await ensureUnder(bus, LIMITS.passwordPerIp, ip);
    await ensureUnder(bus, LIMITS.passwordPerAddressAndIp, pair);
    await ensureUnder(bus, LIMITS.passwordPerAddress, user.email);
    if (!(await verifyPassword(user.password, body.currentPassword))) {
      // A stolen session must not become a free password-guessing oracle.
      await countFailure(bus, LIMITS.passwordPerIp, ip);
      await countFailure(bus, LIMITS.passwordPerAddressAndIp, pair);
      await countFailure(bus, LIMITS.passwordPerAddress, user.email);
      throw new ValidationError(MSG.wrongCurrentPassword, {
        currentPassword: MSG.wrongCurrentPassword,
      });
    }
    const password = await hashPassword(body.newPassword);
    const sids = await this.db.transaction(async (tx) => {
      await repo.updateUser(user.id, { password }, this.now(), tx);
      await repo.voidResetTokens(user.id, tx);
      return destroyUserSessions(tx, user.id, session.sid);
    });
    await this.endSessions(sids);
    await this.audit({ ...origin, ...selfEvent(user), action: 'password_changed' });
    this.deliver(
      passwordChangedMail(user.email, user.firstName, `${this.deps.config.appUrl}/forgot-password`),
    );
  }

  /** The companies the user may choose in Settings: those owning the user's e-mail domain. */
  async companies(userId: string): Promise<CompanyDto[]> {
    const user = await repo.findUserById(userId, this.db);
    if (!user) throw new UnauthorizedError();
    const list = await repo.companiesForDomain(domainOf(user.email), this.db);
    return list.sort((a, b) => a.name.localeCompare(b.name));
  }
}

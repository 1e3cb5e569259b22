import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  ChangePasswordBody,
  CompaniesAnswer,
  CurrentUserQuery,
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  UpdateProfileBody,
  UserDto,
  VerifyEmailParams,
  VerifyOtpAnswer,
  VerifyOtpBody,
} from '@contract/accounts';
import { MessageBody } from '@contract/errors';
import { originOf } from '../audit/audit';
import { LogoutAnswer } from '@contract/sso';
import { AccountsService } from './accounts.service';
import { samlRoutes } from './saml.routes';
import { SamlService } from './saml.service';
import { ssoRoutes } from './sso.routes';
import { SsoService } from './sso.service';
import { dummyHash } from './passwords';
import {
  clearSessionCookie,
  requireFullSession,
  requireUserId,
  setSessionCookie,
} from './sessions';

const confirms = { 200: MessageBody };

/** The request's origin for the audit log, with the address the rate limits key on. */
const originIp = (req: FastifyRequest) => ({ ...originOf(req), ip: req.ip });

/** A signed-out caller gets its 401 before its payload is validated (as when routes parsed it). */
async function signedIn(req: FastifyRequest) {
  requireUserId(req);
}

/**
 * Accounts API (spec section 7): HTTP only; the rules live in AccountsService. Payloads and
 * answers are the contract's schemas (a bad payload is a 400 from lib/error-handler.ts).
 */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.deps;
  const sso = new SsoService(app.deps, app.log);
  const saml = new SamlService(app.deps, sso, app.log);
  const accounts = new AccountsService(app.deps, app.log, sso);
  await app.register(ssoRoutes(sso, saml));
  await app.register(samlRoutes(saml));
  app.addHook('onClose', async () => accounts.drain());
  // Computed now, so the first unknown address at sign-in is not the one request that pays for it.
  await dummyHash();

  app.post('/register', { schema: { body: RegisterBody, response: confirms } }, async (req) => {
    await accounts.register(req.body, originIp(req));
    return { message: ACCOUNT_MESSAGES.registered };
  });

  // The token in this path is kept out of the request log by LOG_REDACT (accounts/log-redaction.ts).
  app.get(
    '/verify-email/:token',
    { schema: { params: VerifyEmailParams, response: confirms } },
    async (req) => {
      await accounts.verifyEmail(req.params.token, originOf(req));
      return { message: ACCOUNT_MESSAGES.emailVerified };
    },
  );

  app.post('/login', { schema: { body: LoginBody, response: confirms } }, async (req, reply) => {
    const { token } = await accounts.login(req.body, originIp(req), req.session);
    setSessionCookie(reply, config, token);
    return { message: ACCOUNT_MESSAGES.codeSent };
  });

  app.post(
    '/verify-otp',
    { schema: { body: VerifyOtpBody, response: { 200: VerifyOtpAnswer } } },
    async (req, reply) => {
      const { token, user } = await accounts.verifyOtp(req.body, req.session, originOf(req));
      setSessionCookie(reply, config, token);
      return { user, message: ACCOUNT_MESSAGES.loggedIn };
    },
  );

  const currentUser = {
    querystring: CurrentUserQuery,
    response: { 200: UserDto, 204: z.undefined() },
  };
  app.get('/auth/user', { schema: currentUser }, async (req, reply) => {
    // ?optional=1 (the web client's check on every page load): a signed-out visitor is normal,
    // so the answer is "nothing" (204), not a 401 the browser logs as an error.
    if (req.query.optional === '1' && req.session?.stage !== 'full') return reply.code(204).send();
    return accounts.currentUser(requireUserId(req));
  });

  app.post('/logout', { schema: { response: { 200: LogoutAnswer } } }, async (req, reply) => {
    // After an SSO sign-in, the provider's sign-out page too (RP-initiated logout), when it has one.
    const logoutUrl = await sso.endSessionUrl(req.session);
    await accounts.logout(req.session);
    clearSessionCookie(reply, config);
    return { message: ACCOUNT_MESSAGES.loggedOut, ...(logoutUrl ? { logoutUrl } : {}) };
  });

  const forgot = { body: ForgotPasswordBody, response: confirms };
  app.post('/forgot-password', { schema: forgot }, async (req) => {
    await accounts.forgotPassword(req.body);
    return { message: ACCOUNT_MESSAGES.resetRequested };
  });

  const reset = { body: ResetPasswordBody, response: confirms };
  app.post('/reset-password', { schema: reset }, async (req, reply) => {
    await accounts.resetPassword(req.body, originOf(req));
    // Every session of the user ended, the caller's included if it had one.
    if (req.session) clearSessionCookie(reply, config);
    return { message: ACCOUNT_MESSAGES.passwordReset };
  });

  const profile = { body: UpdateProfileBody, response: { 200: UserDto } };
  app.patch('/user/profile', { schema: profile, preValidation: signedIn }, async (req) => {
    const userId = requireUserId(req);
    return accounts.updateProfile(userId, req.body, originOf(req));
  });

  const change = { body: ChangePasswordBody, response: confirms };
  app.post('/user/change-password', { schema: change, preValidation: signedIn }, async (req) => {
    const session = requireFullSession(req);
    await accounts.changePassword(session, req.body, originIp(req));
    return { message: ACCOUNT_MESSAGES.passwordChanged };
  });

  app.get('/companies', { schema: { response: { 200: CompaniesAnswer } } }, async (req) => {
    return accounts.companies(requireUserId(req));
  });
};

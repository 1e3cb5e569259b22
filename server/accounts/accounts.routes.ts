import type { FastifyPluginAsync } from 'fastify';
import {
  ACCOUNT_MESSAGES,
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  UpdateProfileBody,
  VerifyOtpBody,
  type CompaniesAnswer,
  type UserDto,
  type VerifyOtpAnswer,
} from '@contract/accounts';
import type { MessageBody } from '@contract/errors';
import { parse } from '../lib/validate';
import { AccountsService } from './accounts.service';
import { dummyHash } from './passwords';
import {
  clearSessionCookie,
  requireFullSession,
  requireUserId,
  setSessionCookie,
} from './sessions';

/** Accounts API (spec section 7): HTTP only; the rules live in AccountsService. */
export const accountsRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.deps;
  const accounts = new AccountsService(app.deps, app.log);
  app.addHook('onClose', async () => accounts.drain());
  // Computed now, so the first unknown address at sign-in is not the one request that pays for it.
  await dummyHash();

  app.post('/register', async (req): Promise<MessageBody> => {
    await accounts.register(parse(RegisterBody, req.body), req.ip);
    return { message: ACCOUNT_MESSAGES.registered };
  });

  // The token in this path is kept out of the request log by LOG_REDACT (accounts/log-redaction.ts).
  app.get<{ Params: { token: string } }>(
    '/verify-email/:token',
    async (req): Promise<MessageBody> => {
      await accounts.verifyEmail(req.params.token);
      return { message: ACCOUNT_MESSAGES.emailVerified };
    },
  );

  app.post('/login', async (req, reply): Promise<MessageBody> => {
    const { token } = await accounts.login(parse(LoginBody, req.body), req.ip, req.session);
    setSessionCookie(reply, config, token);
    return { message: ACCOUNT_MESSAGES.codeSent };
  });

  app.post('/verify-otp', async (req, reply): Promise<VerifyOtpAnswer> => {
    const { token, user } = await accounts.verifyOtp(parse(VerifyOtpBody, req.body), req.session);
    setSessionCookie(reply, config, token);
    return { user, message: ACCOUNT_MESSAGES.loggedIn };
  });

  app.get<{ Querystring: { optional?: string } }>('/auth/user', async (req, reply) => {
    // ?optional=1 (the web client's check on every page load): a signed-out visitor is normal,
    // so the answer is "nothing" (204), not a 401 the browser logs as an error.
    if (req.query.optional === '1' && req.session?.stage !== 'full') return reply.code(204).send();
    return accounts.currentUser(requireUserId(req));
  });

  app.post('/logout', async (req, reply): Promise<MessageBody> => {
    await accounts.logout(req.session);
    clearSessionCookie(reply, config);
    return { message: ACCOUNT_MESSAGES.loggedOut };
  });

  app.post('/forgot-password', async (req): Promise<MessageBody> => {
    await accounts.forgotPassword(parse(ForgotPasswordBody, req.body));
    return { message: ACCOUNT_MESSAGES.resetRequested };
  });

  app.post('/reset-password', async (req, reply): Promise<MessageBody> => {
    await accounts.resetPassword(parse(ResetPasswordBody, req.body));
    // Every session of the user ended, the caller's included if it had one.
    if (req.session) clearSessionCookie(reply, config);
    return { message: ACCOUNT_MESSAGES.passwordReset };
  });

  app.patch('/user/profile', async (req): Promise<UserDto> => {
    const userId = requireUserId(req);
    return accounts.updateProfile(userId, parse(UpdateProfileBody, req.body));
  });

  app.post('/user/change-password', async (req): Promise<MessageBody> => {
    const session = requireFullSession(req);
    await accounts.changePassword(session, parse(ChangePasswordBody, req.body), req.ip);
    return { message: ACCOUNT_MESSAGES.passwordChanged };
  });

  app.get('/companies', async (req): Promise<CompaniesAnswer> => {
    requireUserId(req);
    return accounts.companies();
  });
};

import { z } from 'zod';
import { NAME_MIN, OTP_LENGTH, PASSWORD_MIN } from './constants';

// Payloads and answers of the accounts calls (spec sections 5 and 7). The messages are the spec's,
// including the library defaults it quotes ("String must contain at least N character(s)").

/** An e-mail address as every payload takes it: trimmed, lower-cased, bounded. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(255, 'Email is too long')
  .pipe(z.email('Invalid email'));

/** The settings form's text (spec section 5), written out so it can be found as the spec writes it. */
const NEW_PASSWORD_TOO_SHORT = 'Password must be at least 8 characters long.';

/** Passwords are bounded: argon2 of a megabyte is a denial of service. */
const PASSWORD_MAX = 256;

/** A first or last name, as the sign-up and profile forms take it. */
const personName = z
  .string()
  .trim()
  .min(NAME_MIN, `String must contain at least ${NAME_MIN} character(s)`)
  .max(100);

export const RegisterBody = z.object({
  email: Email,
  password: z
    .string()
    .min(PASSWORD_MIN, `String must contain at least ${PASSWORD_MIN} character(s)`)
    .max(PASSWORD_MAX),
  firstName: personName,
  lastName: personName,
  /** The invitation link's token, when sign-up came from one (ADR 0014). */
  invitation: z.string().trim().max(100).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  email: Email,
  password: z.string().min(1, 'String must contain at least 1 character(s)').max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const VerifyOtpBody = z.object({
  email: Email,
  otp: z
    .string()
    .trim()
    .length(OTP_LENGTH, `String must contain exactly ${OTP_LENGTH} character(s)`),
});
export type VerifyOtpBody = z.infer<typeof VerifyOtpBody>;

export const ForgotPasswordBody = z.object({ email: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z.object({
  token: z.string().min(1, 'Required').max(200),
  password: z
    .string()
    .min(PASSWORD_MIN, `String must contain at least ${PASSWORD_MIN} character(s)`)
    .max(PASSWORD_MAX),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The reset form: confirmation required and equal (spec section 5). */
export const ResetPasswordForm = z
  .object({
    password: ResetPasswordBody.shape.password,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const UpdateProfileBody = z.object({
  firstName: personName,
  lastName: personName,
  phone: z
    .string()
    .trim()
    .max(40, 'Phone number is too long')
    .regex(/^[+()\d\s.-]*$/, 'Phone number may only contain digits, spaces and + ( ) . -')
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  companyId: z.coerce.number().int().positive('Choose a company').nullable().optional(),
  /**
   * The client sends the current address; it cannot be changed. The server ignores it when it is
   * the account's own address (compared case-insensitively) and answers 400 EMAIL_CANNOT_CHANGE
   * otherwise, so a client that believes it changed the address learns that it did not.
   */
  email: z.string().trim().max(255, 'Email is too long').optional(),
});
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ChangePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Required').max(PASSWORD_MAX),
  newPassword: z.string().min(PASSWORD_MIN, NEW_PASSWORD_TOO_SHORT).max(PASSWORD_MAX),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** The settings form: all three required, new and confirmation equal (spec section 5). */
export const ChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Required'),
    newPassword: z.string().min(1, 'Required').min(PASSWORD_MIN, NEW_PASSWORD_TOO_SHORT),
    confirmPassword: z.string().min(1, 'Required'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'New passwords do not match.',
    path: ['confirmPassword'],
  });

/** GET /api/verify-email/{token}: the mailed link's token (checked by its hash, never parsed). */
export const VerifyEmailParams = z.object({ token: z.string() });

/** GET /api/auth/user?optional=1: a signed-out caller gets 204 instead of 401. */
export const CurrentUserQuery = z.object({ optional: z.string().max(10).optional() });

/** member: everyone; admin: manages their company; operator: runs the deployment. */
export const Role = z.enum(['member', 'admin', 'operator']);
export type Role = z.infer<typeof Role>;

/** The current user as the client sees it (spec section 3, client-side shape, and the role). */
export const UserDto = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  companyId: z.number().int().nullable(),
  /** Decides whether the admin console is offered; the server checks it on every admin route. */
  role: Role,
});
export type UserDto = z.infer<typeof UserDto>;

export const VerifyOtpAnswer = z.object({ user: UserDto, message: z.string() });
export type VerifyOtpAnswer = z.infer<typeof VerifyOtpAnswer>;

/** A company as lists and answers name it. */
export const CompanyDto = z.object({ id: z.number().int(), name: z.string() });
export type CompanyDto = z.infer<typeof CompanyDto>;

export const CompaniesAnswer = z.array(CompanyDto);
export type CompaniesAnswer = z.infer<typeof CompaniesAnswer>;

/** The server's messages for the accounts calls: the spec's texts where it gives them. */
export const ACCOUNT_MESSAGES = {
  emailDomain: 'Email must be from valid domain',
  registered: 'Registration successful. Check your email to verify your account.',
  codeSent: 'A 6-digit code was sent to your email.',
  loggedIn: 'Login successful',
  loggedOut: 'You have been successfully logged out',
  resetRequested: "If an account exists with that email, we've sent password reset instructions.",
  passwordReset: 'Your password has been reset. You can now sign in with your new password.',
  emailVerified: 'Your email has been verified. You can now sign in to your account.',
  profileUpdated: 'Profile updated successfully!',
  passwordChanged: 'Password changed successfully!',
  emailCannotChange: 'Email cannot be changed',
} as const;

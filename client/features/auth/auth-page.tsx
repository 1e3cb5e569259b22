import * as React from 'react';
import { useForm, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useSearch } from 'wouter';
import { MailCheckIcon } from 'lucide-react';
import { LoginBody, RegisterBody } from '@contract/accounts';
import { OTP_LENGTH } from '@contract/constants';
import type { SsoLookupAnswer } from '@contract/sso';
import { NameFields, PasswordField, SubmitButton } from '@/components/form-fields';
import { Button } from '@/components/ui/button';
import { Form } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import {
  useInvitationCheck,
  useLogin,
  useRegister,
  useVerifyOtp,
} from '@/features/auth/api/auth-api';
import { useSsoLookup } from '@/features/auth/api/sso-api';
import { formFailure } from '@/lib/server-field-errors';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { EmailField } from '@/features/auth/components/email-field';
import { OtpInput } from '@/features/auth/components/otp-input';
import { SsoButton } from '@/features/auth/components/sso-button';
import {
  authModeFromSearch,
  invitationTokenFromSearch,
  invitedEmailFromSearch,
  withoutParam,
} from '@/features/auth/lib/auth-search';

const MODE_TEXT = {
  register: {
    title: 'Create Account',
    description: 'Sign up with your work e-mail address to open your workspace.',
  },
  login: { title: 'Sign In', description: 'Welcome back. Sign in to continue to Atrium.' },
  otp: { title: 'Verification Code', description: 'One more step to keep your account safe.' },
} as const;

/**
 * /auth (spec section 2): register and login modes follow the address (?mode=register), so the
 * landing page can link straight to sign-up and the back button works; the code step keeps
 * the address it was sent to in memory only.
 */
export function AuthPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  // The code step keeps the sign-in in memory only: "Send a new code" signs in again with it.
  const [otpLogin, setOtpLogin] = React.useState<LoginBody | null>(null);
  const otpEmail = otpLogin?.email ?? null;
  const mode = otpEmail ? 'otp' : authModeFromSearch(search);

  const verified = new URLSearchParams(search).get('verified') === 'true';
  React.useEffect(() => {
    if (!verified) return;
    toast({
      title: 'Email Verified Successfully',
      description: 'Your email has been verified. You can now sign in to your account.',
    });
    navigate(`/auth${withoutParam(search, 'verified')}`, { replace: true });
  }, [verified, search, navigate]);

  return (
    <AuthLayout
      title={MODE_TEXT[mode].title}
      description={MODE_TEXT[mode].description}
      icon={
        mode === 'otp' ? (
          <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheckIcon className="size-6" aria-hidden="true" />
          </span>
        ) : undefined
      }
    >
      {mode === 'register' && (
        <InvitedRegisterForm
          token={invitationTokenFromSearch(search)}
          invitedEmail={invitedEmailFromSearch(search)}
          onRegistered={() => navigate('/auth')}
        />
      )}
      {mode === 'login' && <LoginForm onCodeSent={setOtpLogin} />}
      {mode === 'otp' && otpLogin && (
        <OtpStep
          login={otpLogin}
          onSignedIn={() => navigate('/', { replace: true })}
          onBack={() => setOtpLogin(null)}
        />
      )}
    </AuthLayout>
  );
}

/**
 * Sign-up from an invitation link (ADR 0014): the link is checked first; one that expired, was
 * used or replaced by a resend says so instead of a form the server would refuse.
 */
function InvitedRegisterForm({
  token,
  invitedEmail,
  onRegistered,
}: {
  token: string;
  invitedEmail: string;
  onRegistered: () => void;
}) {
  const check = useInvitationCheck(token);
  if (!token) return <RegisterForm invitedEmail={invitedEmail} onRegistered={onRegistered} />;
  if (check.isPending)
    return (
      <p role="status" className="text-center text-sm text-muted-foreground">
        Checking your invitation...
      </p>
    );
  if (check.isError)
    return (
      <div className="grid gap-4">
        <div
          role="alert"
          className="rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm text-destructive dark:border-destructive dark:text-red-300"
        >
          <p className="font-medium">This invitation link cannot be used</p>
          <p className="mt-1">
            {serverMessage(check.error, 'This invitation link could not be checked. Try again.')}
          </p>
        </div>
        <p className="text-center text-sm text-muted-foreground">
          Already have an account?{' '}
          <Link
            href="/auth"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </p>
      </div>
    );
  return (
    <div className="grid gap-4">
      <p className="rounded-lg border bg-muted/50 p-3 text-sm">
        You are invited to <strong>{check.data.company}</strong>. This invitation is valid until{' '}
        {new Date(check.data.expiresAt).toLocaleString(undefined, {
          dateStyle: 'medium',
          timeStyle: 'short',
        })}
        .
      </p>
      <RegisterForm invitedEmail={check.data.email} token={token} onRegistered={onRegistered} />
    </div>
  );
}

function RegisterForm({
  invitedEmail,
  token,
  onRegistered,
}: {
  /** From an invitation's link: the address is filled in. */
  invitedEmail: string;
  /** The invitation link's token, sent with the sign-up. */
  token?: string;
  onRegistered: () => void;
}) {
  const register = useRegister();
  const form = useForm({
    resolver: zodResolver(RegisterBody),
    defaultValues: { firstName: '', lastName: '', email: invitedEmail, password: '' },
  });

  // A company that enforces its identity provider takes no sign-up with a password.
  const sso = useSsoLookup(form.watch('email'));
  const enforced = sso?.enforced === true;

  const onSubmit = form.handleSubmit((values) => {
    register.mutate(token ? { ...values, invitation: token } : values, {
      onSuccess: (answer) => {
        toast({ title: 'Registration successful', description: answer.message });
        form.reset();
        onRegistered();
      },
      onError: formFailure(
        form.setError,
        ['firstName', 'lastName', 'email', 'password'],
        'Registration failed',
        'An error occurred during registration',
      ),
    });
  });

  return (
    <SsoAwareForm form={form} sso={sso} onSubmit={onSubmit} other="signIn">
      <NameFields control={form.control} className="gap-4" />
      <EmailField control={form.control} name="email" />
      {sso && enforced && <SsoButton sso={sso} divided={false} />}
      {!enforced && (
        <>
          <PasswordField
            control={form.control}
            name="password"
            label="Password"
            autoComplete="new-password"
          />
          <SubmitButton pending={register.isPending} size="lg" className="w-full">
            Create Account
          </SubmitButton>
        </>
      )}
    </SsoAwareForm>
  );
}

function LoginForm({ onCodeSent }: { onCodeSent: (login: LoginBody) => void }) {
  const login = useLogin();
  const form = useForm({
    resolver: zodResolver(LoginBody),
    defaultValues: { email: '', password: '' },
  });

  // After the address is typed: its company's SSO button; with SSO enforced, only that button
  // (no password, so no code step).
  const sso = useSsoLookup(form.watch('email'));
  const enforced = sso?.enforced === true;

  const onSubmit = form.handleSubmit((values) => {
    login.mutate(values, {
      onSuccess: (answer) => {
        toast({ title: 'OTP sent', description: answer.message });
        onCodeSent(values);
      },
      onError: formFailure(
        form.setError,
        ['email', 'password'],
        'Login failed',
        'An error occurred during login',
      ),
    });
  });

  return (
    <SsoAwareForm form={form} sso={sso} onSubmit={onSubmit} other="register">
      <EmailField control={form.control} name="email" />
      {!enforced && (
        <>
          <PasswordField
            control={form.control}
            name="password"
            label="Password"
            labelAside={
              <Link
                href="/forgot-password"
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Forgot password?
              </Link>
            }
            autoComplete="current-password"
          />
          <SubmitButton pending={login.isPending} size="lg" className="w-full">
            Sign In
          </SubmitButton>
        </>
      )}
      {sso && <SsoButton sso={sso} divided={!enforced} />}
    </SsoAwareForm>
  );
}

/** The line under each form that leads to the other one. */
const OTHER_FORM = {
  signIn: { question: 'Already have an account?', href: '/auth', label: 'Sign in' },
  register: {
    question: "Don't have an account?",
    href: '/auth?mode=register',
    label: 'Create one',
  },
} as const;

/**
 * The sign-in and sign-up form: its fields, then the link to the other one. With SSO enforced,
 * Enter in the address field goes to the provider, as the button does.
 */
function SsoAwareForm<T extends FieldValues>({
  form,
  sso,
  onSubmit,
  other,
  children,
}: {
  form: UseFormReturn<T>;
  sso: SsoLookupAnswer | undefined;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => Promise<void>;
  other: keyof typeof OTHER_FORM;
  children: React.ReactNode;
}) {
  return (
    <Form {...form}>
      <form
        onSubmit={(e) => {
          if (sso?.enforced && sso.startUrl) {
            e.preventDefault();
            window.location.assign(sso.startUrl);
            return;
          }
          void onSubmit(e);
        }}
        noValidate
        className="grid gap-4"
      >
        {children}
        <p className="text-center text-sm text-muted-foreground">
          {OTHER_FORM[other].question}{' '}
          <Link
            href={OTHER_FORM[other].href}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            {OTHER_FORM[other].label}
          </Link>
        </p>
      </form>
    </Form>
  );
}

/** Seconds before another code can be asked for (the server rate-limits as well). */
const RESEND_COOLDOWN_S = 30;

function OtpStep({
  login,
  onSignedIn,
  onBack,
}: {
  login: LoginBody;
  onSignedIn: () => void;
  onBack: () => void;
}) {
  const email = login.email;
  const resend = useLogin();
  const [cooldown, setCooldown] = React.useState(RESEND_COOLDOWN_S);
  React.useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((c) => c - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);
  const sendNewCode = () => {
    resend.mutate(login, {
      onSuccess: (answer) => {
        toast({ title: 'New code sent', description: answer.message });
        setCode('');
        setCooldown(RESEND_COOLDOWN_S);
        inputRef.current?.focus();
      },
      onError: (err) => {
        toast({
          variant: 'destructive',
          title: 'Could not send a new code',
          description: serverMessage(err, 'An error occurred during login'),
        });
        setCooldown(RESEND_COOLDOWN_S);
      },
    });
  };
  const verify = useVerifyOtp({
    onSuccess: () => {
      toast({ title: 'Login successful', description: 'Welcome back!' });
      onSignedIn();
    },
  });
  const [code, setCode] = React.useState('');
  const inputRef = React.useRef<HTMLInputElement>(null);
  const hintId = React.useId();

  const submit = (otp: string) => {
    // onComplete and the button can both fire for the same code; one request is enough.
    if (verify.isPending || otp.length !== OTP_LENGTH) return;
    verify.mutate(
      { email, otp },
      {
        onError: (err) => {
          toast({
            variant: 'destructive',
            title: 'Verification failed',
            description: serverMessage(err, 'Invalid or expired OTP'),
          });
          // A wrong code is retyped from scratch, so clear the boxes and put the caret back.
          setCode('');
          inputRef.current?.focus();
        },
      },
    );
  };

  return (
    <form
      className="grid gap-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(code);
      }}
    >
      <p className="text-center text-sm text-muted-foreground">
        We&apos;ve sent a 6-digit code to{' '}
        <span className="font-medium break-words text-foreground">{breakableEmail(email)}</span>
      </p>
      <div className="grid gap-2">
        <Label htmlFor="otp-code" className="sr-only">
          Verification code
        </Label>
        <OtpInput
          ref={inputRef}
          id="otp-code"
          aria-describedby={hintId}
          value={code}
          onChange={setCode}
          onComplete={submit}
          disabled={verify.isPending}
        />
        <p id={hintId} className="text-center text-sm text-muted-foreground">
          {/* The spec's wording; OTP_VALID_MINUTES is the same 15 on the server side. */}
          Code expires in 15 minutes.
        </p>
      </div>
      <SubmitButton pending={verify.isPending} size="lg" className="w-full">
        Verify Code
      </SubmitButton>
      <p className="text-center text-sm text-muted-foreground">
        Didn&apos;t get it?{' '}
        <Button
          type="button"
          variant="link"
          className="h-auto p-0"
          disabled={cooldown > 0 || resend.isPending}
          onClick={sendNewCode}
        >
          {resend.isPending
            ? 'Sending...'
            : cooldown > 0
              ? `Send a new code (${cooldown} s)`
              : 'Send a new code'}
        </Button>
      </p>
      <Button type="button" variant="link" onClick={onBack} className="justify-self-center">
        Back to login
      </Button>
    </form>
  );
}

/**
 * An address that may wrap only where it reads well: before the @ and before each dot, never
 * inside a word (a word longer than the line still wraps, as the last resort of break-words).
 */
function breakableEmail(email: string): React.ReactNode {
  return email.split(/(?=[@.])/).map((piece, i) => (
    <React.Fragment key={i}>
      {i > 0 && <wbr />}
      {piece}
    </React.Fragment>
  ));
}

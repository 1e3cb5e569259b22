import * as React from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { CheckCircle2Icon, Loader2Icon, XCircleIcon } from 'lucide-react';
import { VERIFY_REDIRECT_DELAYS_MS } from '@contract/constants';
import { Button } from '@/components/ui/button';
import { verifyEmailQueryOptions } from '@/api/auth';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import {
  INVALID_VERIFICATION_LINK,
  VERIFY_STATE_TITLES,
  verificationFailureMessage,
  type VerifyEmailState,
} from '@/features/auth/lib/verify-email';

function useVerifyEmail(token: string | null) {
  return useQuery(verifyEmailQueryOptions(token));
}

/** /verify-email?token=...: loading, then success (then redirecting) or error (spec section 2). */
export function VerifyEmailPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(search).get('token') || null;
  const query = useVerifyEmail(token);
  const [redirecting, setRedirecting] = React.useState(false);

  const state: VerifyEmailState =
    token === null
      ? { status: 'error', message: INVALID_VERIFICATION_LINK }
      : query.isError
        ? { status: 'error', message: verificationFailureMessage(query.error) }
        : query.isSuccess
          ? { status: redirecting ? 'redirecting' : 'success', message: query.data.message }
          : { status: 'loading' };

  // Spec section 2: 2 s showing the success, then 1 s "redirecting", then /?verified=true
  // (which sends an anonymous visitor on to /auth, where the success toast shows).
  const succeeded = query.isSuccess;
  React.useEffect(() => {
    if (!succeeded) return;
    const [showMs, redirectMs] = VERIFY_REDIRECT_DELAYS_MS;
    let redirect: ReturnType<typeof setTimeout> | undefined;
    const show = setTimeout(() => {
      setRedirecting(true);
      redirect = setTimeout(() => navigate('/?verified=true', { replace: true }), redirectMs);
    }, showMs);
    return () => {
      clearTimeout(show);
      clearTimeout(redirect);
    };
  }, [succeeded, navigate]);

  const ok = state.status === 'success' || state.status === 'redirecting';
  return (
    <AuthLayout
      title={VERIFY_STATE_TITLES[state.status]}
      icon={<StatusIcon status={state.status} />}
    >
      <div className="grid gap-5 text-center" aria-live="polite">
        {state.status === 'loading' ? (
          <p className="text-sm text-muted-foreground">Please wait while we check your link.</p>
        ) : (
          <p className={ok ? 'text-sm text-muted-foreground' : 'text-sm text-destructive'}>
            {state.message}
          </p>
        )}
        {state.status === 'redirecting' && (
          <p className="text-sm text-muted-foreground">Redirecting to sign in...</p>
        )}
        {state.status !== 'loading' && (
          <Button asChild size="lg" className="w-full" variant={ok ? 'default' : 'outline'}>
            {ok ? (
              <Link href="/auth?verified=true">Continue to Sign In</Link>
            ) : (
              <Link href="/">Back to Home</Link>
            )}
          </Button>
        )}
      </div>
    </AuthLayout>
  );
}

function StatusIcon({ status }: { status: VerifyEmailState['status'] }) {
  const base = 'flex size-14 items-center justify-center rounded-full';
  if (status === 'loading') {
    return (
      <span className={`${base} bg-primary/10 text-primary`}>
        <Loader2Icon className="size-7 animate-spin" aria-hidden="true" />
      </span>
    );
  }
  if (status === 'error') {
    return (
      <span className={`${base} bg-destructive/10 text-destructive`}>
        <XCircleIcon className="size-7" aria-hidden="true" />
      </span>
    );
  }
  return (
    <span className={`${base} bg-emerald-500/10 text-emerald-600 dark:text-emerald-400`}>
      <CheckCircle2Icon className="size-7" aria-hidden="true" />
    </span>
  );
}

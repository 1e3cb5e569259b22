import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useSearch } from 'wouter';
import { ResetPasswordForm } from '@contract/accounts';
import { PasswordField, SubmitButton } from '@/components/form-fields';
import { Form } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { formFailure } from '@/lib/server-field-errors';
import { useResetPassword } from '@/features/auth/api/auth-api';
import { AuthLayout } from '@/features/auth/components/auth-layout';

/** /reset-password?token=...: a new password, twice (spec sections 2 and 5). */
export function ResetPasswordPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const token = new URLSearchParams(search).get('token') || null;

  React.useEffect(() => {
    if (token !== null) return;
    toast({
      variant: 'destructive',
      title: 'Invalid Link',
      description: 'The password reset link is invalid or missing.',
    });
    navigate('/auth', { replace: true });
  }, [token, navigate]);

  if (token === null) return null;
  return <ResetPasswordScreen token={token} onDone={() => navigate('/auth', { replace: true })} />;
}

function ResetPasswordScreen({ token, onDone }: { token: string; onDone: () => void }) {
  const reset = useResetPassword();
  const form = useForm({
    resolver: zodResolver(ResetPasswordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = form.handleSubmit(({ password }) => {
    reset.mutate(
      { token, password },
      {
        onSuccess: (answer) => {
          toast({ title: 'Password Reset Successful', description: answer.message });
          onDone();
        },
        onError: formFailure(
          form.setError,
          ['password'],
          'Reset Failed',
          'The reset link may have expired. Please request a new one.',
        ),
      },
    );
  });

  return (
    <AuthLayout
      title="Reset your password"
      description="Choose a new password of at least 8 characters."
      footer={
        <Link
          href="/forgot-password"
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Request a new link
        </Link>
      }
    >
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <PasswordField
            control={form.control}
            name="password"
            label="New password"
            autoComplete="new-password"
            autoFocus
          />
          <PasswordField
            control={form.control}
            name="confirmPassword"
            label="Confirm new password"
            autoComplete="new-password"
          />
          <SubmitButton pending={reset.isPending} size="lg" className="w-full">
            Reset Password
          </SubmitButton>
        </form>
      </Form>
    </AuthLayout>
  );
}

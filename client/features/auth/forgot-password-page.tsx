import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { ArrowLeftIcon, MailCheckIcon } from 'lucide-react';
import { ForgotPasswordBody } from '@contract/accounts';
import { SubmitButton } from '@/components/form-fields';
import { Form } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { formFailure } from '@/lib/server-field-errors';
import { useForgotPassword } from '@/features/auth/api/auth-api';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { EmailField } from '@/features/auth/components/email-field';

const CHECK_EMAIL_TEXT =
  "If an account exists with that email, we've sent password reset instructions.";

function BackToSignIn() {
  return (
    <Link
      href="/auth"
      className="inline-flex items-center gap-1.5 rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <ArrowLeftIcon className="size-4" aria-hidden="true" />
      Back to sign in
    </Link>
  );
}

/** /forgot-password: the form, then a success panel in its place (spec section 4). */
export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const [sentTo, setSentTo] = React.useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(ForgotPasswordBody),
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit((values) => {
    forgot.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Check your email', description: CHECK_EMAIL_TEXT });
        setSentTo(values.email);
      },
      onError: formFailure(
        form.setError,
        ['email'],
        'Error',
        'Something went wrong. Please try again.',
      ),
    });
  });

  if (sentTo !== null) {
    return (
      <AuthLayout
        title="Check your email"
        icon={
          <span className="flex size-14 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheckIcon className="size-7" aria-hidden="true" />
          </span>
        }
        footer={<BackToSignIn />}
      >
        <div className="grid gap-3 text-center text-sm text-muted-foreground" role="status">
          <p>{CHECK_EMAIL_TEXT}</p>
          <p>
            We sent it to <span className="font-medium break-all text-foreground">{sentTo}</span>.
            The link is valid for one hour.
          </p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter your e-mail address and we'll send you a link to reset your password."
      footer={<BackToSignIn />}
    >
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <EmailField control={form.control} name="email" autoFocus />
          <SubmitButton pending={forgot.isPending} size="lg" className="w-full">
            Send Reset Link
          </SubmitButton>
        </form>
      </Form>
    </AuthLayout>
  );
}

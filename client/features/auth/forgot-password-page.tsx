import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { ArrowLeftIcon, Loader2Icon, MailCheckIcon } from 'lucide-react';
import { ForgotPasswordBody } from '@contract/accounts';
import { Button } from '@/components/ui/button';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/lib/api';
import { useForgotPassword } from '@/features/auth/api/auth-api';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { applyServerFieldErrors } from '@/features/auth/lib/server-field-errors';

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
      onError: (err) => {
        applyServerFieldErrors(err, form.setError, ['email']);
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(err, 'Something went wrong. Please try again.'),
        });
      },
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
          <FormField
            control={form.control}
            name="email"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Email</FormLabel>
                <FormControl>
                  <Input
                    type="email"
                    autoComplete="email"
                    inputMode="email"
                    placeholder="name@company.com"
                    maxLength={255}
                    autoFocus
                    {...field}
                  />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={forgot.isPending}
            aria-busy={forgot.isPending}
          >
            {forgot.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Send Reset Link
          </Button>
        </form>
      </Form>
    </AuthLayout>
  );
}

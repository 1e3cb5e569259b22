import { useForm, type FieldErrors } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordForm } from '@contract/accounts';
import { PasswordField, SubmitButton } from '@/components/form-fields';
import { Form } from '@/components/ui/form';
import { toast } from '@/hooks/use-toast';
import { formFailure } from '@/lib/server-field-errors';
import { useChangePassword } from '@/features/settings/api/settings-api';

type Fields = 'currentPassword' | 'newPassword' | 'confirmPassword';
const FIELDS: readonly { name: Fields; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
];

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function SecurityForm() {
  const change = useChangePassword();
  const form = useForm({ resolver: zodResolver(ChangePasswordForm), defaultValues: EMPTY });

  // The spec words these rules as toasts ("New passwords do not match." ...); the same text
  // also stays under the field it concerns.
  const onInvalid = (errors: FieldErrors<typeof EMPTY>) => {
    const first = FIELDS.map((f) => errors[f.name]?.message).find(Boolean);
    if (first) toast({ variant: 'destructive', title: 'Error', description: first });
  };

  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) => {
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(EMPTY);
          toast({ title: 'Success', description: 'Password changed successfully!' });
        },
        onError: formFailure(
          form.setError,
          ['currentPassword', 'newPassword'],
          'Error',
          'Failed to change password. Please try again.',
        ),
      },
    );
  }, onInvalid);

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        {FIELDS.map((f) => (
          <PasswordField
            key={f.name}
            control={form.control}
            name={f.name}
            label={f.label}
            autoComplete={f.autoComplete}
          />
        ))}
        <div className="flex sm:justify-end">
          <SubmitButton
            pending={change.isPending}
            pendingLabel="Changing Password..."
            className="w-full sm:w-auto"
          >
            Change Password
          </SubmitButton>
        </div>
      </form>
    </Form>
  );
}

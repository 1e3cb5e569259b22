import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { TriangleAlertIcon } from 'lucide-react';
import type { UserDto } from '@contract/accounts';
import { Button } from '@/components/ui/button';
import { NameFields, SubmitButton, TextField } from '@/components/form-fields';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { OptionsSelect } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import { formFailure } from '@/lib/server-field-errors';
import { useCompanies, useUpdateProfile } from '@/features/settings/api/settings-api';
import {
  ProfileFormSchema,
  profileFormValues,
  profileUpdateBody,
} from '@/features/settings/lib/profile-form';

const COMPANY_WARNING =
  'Changing this will affect which agents you use. Only change if you are sure. It will not affect old chats, but new requests will be on the new agents and responses will be different.';

export function ProfileForm({ user }: { user: UserDto }) {
  const update = useUpdateProfile();
  const companies = useCompanies();
  const form = useForm({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: profileFormValues(user),
  });
  const emailId = React.useId();

  const onSubmit = form.handleSubmit((values) => {
    update.mutate(profileUpdateBody(values, user), {
      onSuccess: (updated) => {
        form.reset(profileFormValues(updated));
        toast({ title: 'Success', description: 'Profile updated successfully!' });
      },
      onError: formFailure(
        form.setError,
        ['firstName', 'lastName', 'phone', 'companyId'],
        'Error',
        'Failed to update profile. Please try again.',
      ),
    });
  });

  const companyPlaceholder = companies.isLoading
    ? 'Loading companies...'
    : !companies.data?.length
      ? 'No companies available'
      : 'Select a company';

  return (
    <Form {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <NameFields control={form.control} className="gap-5" />

        <div className="grid gap-2">
          <label htmlFor={emailId} className="text-sm leading-none font-medium">
            Email
          </label>
          <Input
            id={emailId}
            type="email"
            value={user.email}
            readOnly
            aria-describedby={`${emailId}-hint`}
            className="bg-muted/60 text-muted-foreground"
          />
          <p id={`${emailId}-hint`} className="text-sm text-muted-foreground">
            Your e-mail address is your sign-in and cannot be changed.
          </p>
        </div>

        <FormField
          control={form.control}
          name="companyId"
          render={({ field }) => (
            <FormItem>
              <FormLabel>Company</FormLabel>
              <OptionsSelect
                options={(companies.data ?? []).map((c) => ({
                  value: String(c.id),
                  label: c.name,
                }))}
                // Until the companies are there, the box says "Loading companies..." rather than
                // holding a value it cannot name yet (it showed blank).
                value={companies.isLoading ? '' : field.value || ''}
                onChange={field.onChange}
                disabled={companies.isLoading || !companies.data?.length}
                placeholder={companyPlaceholder}
                trigger={{ ref: field.ref, onBlur: field.onBlur, className: 'w-full' }}
                wrapTrigger={(trigger) => <FormControl>{trigger}</FormControl>}
              />
              <FormDescription className="flex gap-2 rounded-md border border-amber-500/30 bg-amber-500/10 p-3 text-amber-900 dark:text-amber-200">
                <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>{COMPANY_WARNING}</span>
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />

        <TextField
          control={form.control}
          name="phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+1 555 010 0100"
          maxLength={40}
        />

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            type="button"
            variant="outline"
            onClick={() => form.reset(profileFormValues(user))}
            disabled={update.isPending}
          >
            Cancel
          </Button>
          <SubmitButton pending={update.isPending} pendingLabel="Saving...">
            Save Changes
          </SubmitButton>
        </div>
      </form>
    </Form>
  );
}

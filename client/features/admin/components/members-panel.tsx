import * as React from 'react';
import { DownloadIcon, MailPlusIcon, SearchIcon } from 'lucide-react';
import type { MemberDto } from '@contract/admin';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { membersCsvUrl } from '@/api/admin';
import { useInvite, useMemberAction, useMembers } from '@/features/admin/api/admin-api';
import { InvitationsList } from './invitations-list';
import { Pager, when } from './pager';
import { EmptyItem, Field, LoadFailure } from './panel-parts';

/** Members: search, pages, invite, disable/enable, make/remove admin, CSV export. */
export function MembersPanel({ company, selfId }: { company?: number; selfId: string }) {
  const [q, setQ] = React.useState('');
  const [page, setPage] = React.useState(1);
  const members = useMembers({ company, q, page });
  const action = useMemberAction();
  const run = (m: MemberDto, a: 'disable' | 'enable' | 'make-admin' | 'remove-admin') =>
    action.mutate(
      { id: m.id, action: a },
      {
        onSuccess: () => toast({ title: `${m.email}: ${ACTION_DONE[a]}` }),
        onError: (err) =>
          toast({ variant: 'destructive', title: serverMessage(err, 'That did not work') }),
      },
    );
  return (
    <div className="flex flex-col gap-4">
      <InviteForm company={company} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field id="member-search" label="Search members" className="relative flex-1">
          <SearchIcon
            className="pointer-events-none absolute bottom-2.5 left-3 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id="member-search"
            className="pl-9"
            placeholder="Name or e-mail"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
          />
        </Field>
        <Button variant="outline" asChild>
          <a href={membersCsvUrl(company, q)} download>
            <DownloadIcon aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      {members.isError ? (
        <LoadFailure error={members.error} fallback="Could not load the members." />
      ) : (
        <ul aria-label="Members" className="flex flex-col divide-y rounded-xl border bg-card">
          {members.data?.members.map((m) => (
            <li key={m.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">
                  {m.firstName} {m.lastName}
                </p>
                <p className="truncate text-sm text-muted-foreground">{m.email}</p>
                <p className="text-xs text-muted-foreground">
                  Last sign-in: {when(m.lastSignInAt)}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant={m.role === 'member' ? 'secondary' : 'default'}>
                  {ROLE[m.role]}
                </Badge>
                {m.disabled && <Badge variant="destructive">Disabled</Badge>}
                {m.id !== selfId && m.role !== 'operator' && (
                  <>
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={action.isPending}
                      aria-label={`${m.role === 'admin' ? 'Remove admin' : 'Make admin'}: ${m.email}`}
                      onClick={() => run(m, m.role === 'admin' ? 'remove-admin' : 'make-admin')}
                    >
                      {m.role === 'admin' ? 'Remove admin' : 'Make admin'}
                    </Button>
                    <Button
                      size="sm"
                      variant={m.disabled ? 'outline' : 'destructive'}
                      disabled={action.isPending}
                      aria-label={`${m.disabled ? 'Enable' : 'Disable'}: ${m.email}`}
                      onClick={() => run(m, m.disabled ? 'enable' : 'disable')}
                    >
                      {m.disabled ? 'Enable' : 'Disable'}
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
          {members.data?.members.length === 0 && <EmptyItem>No members found</EmptyItem>}
        </ul>
      )}
      {members.data && (
        <Pager label="Member pages" page={page} of={members.data} onPage={setPage} />
      )}
      <InvitationsList company={company} q={q} />
    </div>
  );
}

const ROLE = { member: 'Member', admin: 'Admin', operator: 'Operator' } as const;
const ACTION_DONE = {
  disable: 'disabled, signed out everywhere',
  enable: 'enabled',
  'make-admin': 'now an admin',
  'remove-admin': 'no longer an admin',
} as const;

function InviteForm({ company }: { company?: number }) {
  const [email, setEmail] = React.useState('');
  const invite = useInvite();
  const [error, setError] = React.useState<string | null>(null);
  return (
    <form
      className="flex flex-col gap-2 rounded-xl border bg-card p-4 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        invite.mutate(
          { email, company },
          {
            onSuccess: (r) => {
              toast({ title: r.message });
              setEmail('');
            },
            onError: (err) => setError(serverMessage(err, 'Could not send the invitation')),
          },
        );
      }}
    >
      <Field id="invite-email" label="Invite by e-mail" className="flex-1">
        <Input
          id="invite-email"
          type="email"
          required
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'invite-error' : undefined}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="name@company.com"
        />
        {error && (
          <p id="invite-error" role="alert" className="mt-1 text-sm text-destructive">
            {error}
          </p>
        )}
      </Field>
      <Button type="submit" disabled={invite.isPending}>
        <MailPlusIcon aria-hidden="true" />
        Send invitation
      </Button>
    </form>
  );
}

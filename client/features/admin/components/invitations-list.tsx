import * as React from 'react';
import { SendIcon } from 'lucide-react';
import type { InvitationDto } from '@contract/invitations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { useInvitations, useInvite } from '@/features/admin/api/admin-api';
import { Pager, when } from './pager';
import { LoadFailure } from './panel-parts';

/**
 * Invitations not yet accepted (ADR 0014): pending ones until when, expired ones since when, and
 * a resend for each (a new link, valid 7 days; the old one stops working).
 */
export function InvitationsList({ company, q }: { company?: number; q: string }) {
  const [page, setPage] = React.useState(1);
  React.useEffect(() => setPage(1), [q, company]);
  const list = useInvitations({ company, q, page });
  const invite = useInvite();
  const resend = (i: InvitationDto) =>
    invite.mutate(
      { email: i.email, company },
      {
        onSuccess: (r) => toast({ title: r.message }),
        onError: (err) =>
          toast({
            variant: 'destructive',
            title: serverMessage(err, 'Could not send the invitation'),
          }),
      },
    );
  if (list.isError)
    return <LoadFailure error={list.error} fallback="Could not load the invitations." />;
  if (!list.data || list.data.total === 0) return null;
  return (
    <section aria-labelledby="invitations-heading" className="flex flex-col gap-2">
      <h3 id="invitations-heading" className="text-sm font-semibold">
        Invitations not yet accepted
      </h3>
      <ul aria-label="Invitations" className="flex flex-col divide-y rounded-xl border bg-card">
        {list.data.invitations.map((i) => (
          <li key={i.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium">{i.email}</p>
              <p className="text-xs text-muted-foreground">
                Sent {when(i.invitedAt)} ·{' '}
                {i.status === 'expired'
                  ? `expired ${when(i.expiresAt)}`
                  : `valid until ${when(i.expiresAt)}`}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={i.status === 'expired' ? 'destructive' : 'secondary'}>
                {i.status === 'expired' ? 'Expired' : 'Pending'}
              </Badge>
              <Button
                size="sm"
                variant="outline"
                disabled={invite.isPending}
                aria-label={`Resend invitation: ${i.email}`}
                onClick={() => resend(i)}
              >
                <SendIcon aria-hidden="true" />
                Resend
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <Pager label="Invitation pages" page={page} of={list.data} onPage={setPage} />
    </section>
  );
}

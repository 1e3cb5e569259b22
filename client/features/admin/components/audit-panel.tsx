import * as React from 'react';
import { DownloadIcon, ShieldCheckIcon } from 'lucide-react';
import { AUDIT_ACTIONS } from '@contract/admin';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { serverMessage } from '@/api/http';
import { auditCsvUrl } from '@/api/admin';
import { useAudit, useVerifyAudit } from '@/features/admin/api/admin-api';
import { Pager, when } from './pager';
import { EmptyItem, Field, LoadFailure } from './panel-parts';

/** A datetime-local value as an ISO instant in the reader's zone, or undefined. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The audit log: filters, pages, CSV export of the filtered set, and Verify. */
export function AuditPanel({ company }: { company?: number }) {
  const [from, setFrom] = React.useState('');
  const [to, setTo] = React.useState('');
  const [actor, setActor] = React.useState('');
  const [action, setAction] = React.useState('');
  const [target, setTarget] = React.useState('');
  const [page, setPage] = React.useState(1);
  const filter = {
    company,
    from: instant(from),
    to: instant(to),
    actor: actor || undefined,
    action: action || undefined,
    target: target || undefined,
  };
  const audit = useAudit({ ...filter, page });
  const verify = useVerifyAudit();
  const field =
    (set: (v: string) => void) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
      set(e.target.value);
      setPage(1);
    };
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          onClick={() => verify.mutate(company)}
          disabled={verify.isPending}
        >
          <ShieldCheckIcon aria-hidden="true" />
          Verify
        </Button>
        <p aria-live="polite" className="text-sm">
          {verify.data
            ? verify.data.intact
              ? `The log is intact: ${verify.data.checked} entries checked.`
              : `The log was changed: entry ${verify.data.brokenAt} does not match its chain.`
            : verify.isError
              ? serverMessage(verify.error, 'Could not verify')
              : ''}
        </p>
        <Button variant="outline" asChild className="sm:ml-auto">
          <a href={auditCsvUrl(filter)} download>
            <DownloadIcon aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </div>
      <fieldset className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-3">
        <legend className="px-1 text-sm font-medium">Filters</legend>
        <Field id="audit-from" label="From">
          <Input id="audit-from" type="datetime-local" value={from} onChange={field(setFrom)} />
        </Field>
        <Field id="audit-to" label="To">
          <Input id="audit-to" type="datetime-local" value={to} onChange={field(setTo)} />
        </Field>
        <Field id="audit-action" label="Action">
          <select
            id="audit-action"
            value={action}
            onChange={field(setAction)}
            className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field id="audit-actor" label="Actor">
          <Input id="audit-actor" value={actor} onChange={field(setActor)} placeholder="e-mail" />
        </Field>
        <Field id="audit-target" label="Target" className="sm:col-span-2">
          <Input id="audit-target" value={target} onChange={field(setTarget)} />
        </Field>
      </fieldset>
      {audit.isError ? (
        <LoadFailure error={audit.error} fallback="Could not load the log." />
      ) : (
        <ol aria-label="Audit entries" className="flex flex-col divide-y rounded-xl border bg-card">
          {audit.data?.entries.map((e) => (
            <li key={e.id} className="grid gap-1 p-3 text-sm sm:grid-cols-[11rem_1fr]">
              <span className="text-muted-foreground">{when(e.at)}</span>
              <span className="min-w-0 break-words">
                <span className="font-medium">{e.action.replaceAll('_', ' ')}</span>
                {e.target && <> · {e.target}</>}
                <span className="block text-muted-foreground">
                  by {e.actorEmail ?? 'the system'}
                  {e.ip && <> from {e.ip}</>}
                  {e.detail && <> · {e.detail}</>}
                </span>
              </span>
            </li>
          ))}
          {audit.data?.entries.length === 0 && <EmptyItem>No entries match</EmptyItem>}
        </ol>
      )}
      {audit.data && <Pager label="Audit pages" page={page} of={audit.data} onPage={setPage} />}
    </div>
  );
}

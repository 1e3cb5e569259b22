import * as React from 'react';
import { EyeIcon } from 'lucide-react';
import { PERSON_REASON_MIN, type PersonUsageAnswer } from '@contract/usage-people';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { serverMessage } from '@/api/http';
import { usePersonUsage, useUsagePeople } from '@/features/admin/api/admin-api';
import {
  Failure,
  Field,
  FiguresRow,
  HeaderRow,
  LoadFailure,
  Loading,
  TextField,
} from './panel-parts';

const number = new Intl.NumberFormat('en-US');

/**
 * Per person (ADR 0016, the works-council rule): how use spreads over the people of the range,
 * with nobody named and only for groups of at least 5; one named person's usage only after the
 * admin asks for it with a reason, and that view is written to the audit log.
 */
export function PeopleUsage({
  company,
  from,
  to,
  oneCompany,
}: {
  company?: number;
  from: string;
  to: string;
  /** False in an operator's view of every company: a person is looked up in one company. */
  oneCompany: boolean;
}) {
  const spread = useUsagePeople({ company, from, to });
  const data = spread.data;
  return (
    <section
      aria-labelledby="usage-people"
      className="flex flex-col gap-3 rounded-xl border bg-card p-4"
    >
      <h3 id="usage-people" className="text-sm font-medium">
        Per person
      </h3>
      {spread.isError ? (
        <LoadFailure error={spread.error} fallback="Could not load the figures per person." />
      ) : !data ? (
        <Loading />
      ) : !data.shown ? (
        <p className="text-sm text-muted-foreground">
          Figures per person are shown only for groups of at least {data.minGroupSize} people;{' '}
          {data.groupSize === 1 ? '1 person was' : `${data.groupSize} people were`} active in this
          range.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-label="Usage per person (unnamed)" className="w-full text-sm">
            <caption className="pb-2 text-left text-xs text-muted-foreground">
              {data.groupSize} people, most turns first; nobody is named.
            </caption>
            <HeaderRow columns={['Person', 'Turns', 'Active days']} />
            <tbody className="divide-y">
              {data.people.map((p) => (
                <tr key={p.rank}>
                  <th scope="row" className="p-2 text-left font-normal">
                    #{p.rank}
                  </th>
                  <td className="p-2">{number.format(p.turns)}</td>
                  <td className="p-2">{number.format(p.activeDays)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {oneCompany && <OnePerson company={company} from={from} to={to} />}
    </section>
  );
}

function OnePerson({ company, from, to }: { company?: number; from: string; to: string }) {
  const [open, setOpen] = React.useState(false);
  const [email, setEmail] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  const [shown, setShown] = React.useState<PersonUsageAnswer | null>(null);
  const view = usePersonUsage();
  if (!open)
    return (
      <div>
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          <EyeIcon aria-hidden="true" />
          See one person's usage...
        </Button>
      </div>
    );
  return (
    <div className="flex flex-col gap-3 border-t pt-3">
      <form
        aria-label="See one person's usage"
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          view.mutate(
            { company, email, reason, from, to },
            {
              onSuccess: setShown,
              onError: (err) => setError(serverMessage(err, "Could not show that person's usage")),
            },
          );
        }}
      >
        <p className="text-sm text-muted-foreground">
          Looking at one person's usage is recorded in the audit log, with your reason.
        </p>
        <TextField
          id="person-email"
          label="Member's e-mail"
          type="email"
          required
          value={email}
          onValue={setEmail}
        />
        <Field id="person-reason" label="Reason">
          <Textarea
            id="person-reason"
            required
            minLength={PERSON_REASON_MIN}
            maxLength={500}
            value={reason}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'person-error' : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
        <Failure id="person-error" error={error} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={view.isPending}>
            Show and record in the audit log
          </Button>
          <Button
            type="button"
            size="sm"
            variant="ghost"
            onClick={() => {
              setOpen(false);
              setShown(null);
            }}
          >
            Close
          </Button>
        </div>
      </form>
      {shown && (
        <div className="overflow-x-auto">
          <table aria-label={`Usage of ${shown.person.email}`} className="w-full text-sm">
            <caption className="pb-2 text-left text-sm font-medium">
              {shown.person.name} ({shown.person.email}), {shown.from} to {shown.to}
            </caption>
            <HeaderRow columns={['Module', 'Turns', 'Tokens in', 'Tokens out', 'Errors']} />
            <tbody className="divide-y">
              {[...shown.modules, { key: '', label: 'Total', ...shown.totals }].map((m) => (
                <FiguresRow
                  key={m.key || 'total'}
                  label={m.label}
                  figures={[m.turns, m.inputTokens, m.outputTokens, m.errors].map((n) =>
                    number.format(n),
                  )}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import * as React from 'react';
import { HourglassIcon } from 'lucide-react';
import { MODULES } from '@contract/module-list';
import type { LegalHoldDto, RetentionPolicyDto } from '@contract/retention';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { Option } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import {
  useAddHold,
  useRemoveHold,
  useRetention,
  useSetRetention,
} from '@/features/admin/api/retention-api';
import {
  ActionList,
  Failure,
  FormCard,
  LoadFailure,
  SelectField,
  TextField,
  toastFailure,
  useFormCall,
} from './panel-parts';

// Retention (docs/decisions/0071-retention-policies-and-legal-holds.md): how long each module's
// chats are kept after their last activity, and the legal holds that keep them regardless. The
// purge runs daily on the server.

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function PolicyRow({ company, policy }: { company?: number; policy: RetentionPolicyDto }) {
  const set = useSetRetention();
  const name = MODULES[policy.module].name;
  const [days, setDays] = React.useState(policy.days === null ? '' : String(policy.days));
  const form = useFormCall();
  const id = `retention-${policy.module}`;

  const save = (value: number | null) =>
    set.mutate(
      { company, module: policy.module, days: value },
      form.callbacks(
        value === null ? `${name} chats kept for ever` : 'Retention saved',
        'Could not save the retention',
        () => {
          if (value === null) setDays('');
        },
      ),
    );

  return (
    <li className="flex flex-col gap-3 p-4">
      <form
        aria-label={`${name} retention`}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          save(days.trim() === '' ? null : Number(days.trim()));
        }}
      >
        <div className="min-w-0 flex-1">
          <p className="font-medium">{name}</p>
          <p className="text-sm text-muted-foreground">
            {policy.days === null
              ? 'Kept for ever'
              : `Deleted ${policy.days} ${policy.days === 1 ? 'day' : 'days'} after their last activity`}
          </p>
        </div>
        <div className="flex flex-col gap-1.5 sm:w-72">
          <Label htmlFor={id}>Days to keep {name} chats</Label>
          <Input
            id={id}
            inputMode="numeric"
            placeholder="For ever"
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <Button type="submit" disabled={set.isPending}>
            Save
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={set.isPending || policy.days === null}
            onClick={() => save(null)}
          >
            Keep for ever
          </Button>
        </div>
      </form>
      <Failure error={form.error} />
    </li>
  );
}

function holdLabel(h: LegalHoldDto): string {
  return h.kind === 'person'
    ? `${h.userEmail ?? 'A former member'}: all their chats`
    : `Chat "${h.chatTitle ?? h.chatId}"${h.userEmail ? ` of ${h.userEmail}` : ''}`;
}

const HOLD_KINDS: Option<'person' | 'chat'>[] = [
  { value: 'person', label: 'A person (all their chats)' },
  { value: 'chat', label: 'One chat' },
];

function HoldForm({ company }: { company?: number }) {
  const add = useAddHold();
  const [kind, setKind] = React.useState<'person' | 'chat'>('person');
  const [target, setTarget] = React.useState('');
  const [reason, setReason] = React.useState('');
  const form = useFormCall();

  const submit = () => {
    const value = target.trim();
    add.mutate(
      { company, reason, ...(kind === 'person' ? { email: value } : { chatId: value }) },
      form.callbacks('Legal hold placed', 'Could not place the hold', () => {
        setTarget('');
        setReason('');
      }),
    );
  };

  return (
    <FormCard
      title="Place a legal hold"
      intro="Held chats are never deleted by retention, however old, until the hold is lifted."
      onSubmit={submit}
      error={form.error}
      pending={add.isPending}
      label="Place hold"
      busy="Placing..."
    >
      <SelectField
        labelId="hold-kind-label"
        label="Hold"
        options={HOLD_KINDS}
        value={kind}
        onChange={setKind}
      />
      <TextField
        id="hold-target"
        label={kind === 'person' ? 'Email' : 'Chat id'}
        type={kind === 'person' ? 'email' : 'text'}
        required
        maxLength={255}
        placeholder={kind === 'person' ? 'name@company.com' : 'From the chat address /chat/...'}
        value={target}
        onValue={setTarget}
      />
      <TextField
        id="hold-reason"
        label="Reason (optional)"
        className="sm:col-span-2"
        maxLength={500}
        value={reason}
        onValue={setReason}
      />
    </FormCard>
  );
}

/** The console tab's label. */
export function RetentionTabLabel() {
  return (
    <>
      <HourglassIcon aria-hidden="true" />
      Retention
    </>
  );
}

export function RetentionPanel({ company }: { company?: number }) {
  const retention = useRetention(company);
  const remove = useRemoveHold();
  const data = retention.data;

  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="retention-heading" className="flex flex-col gap-3">
        <div>
          <h3 id="retention-heading" className="text-lg font-semibold">
            Retention
          </h3>
          <p className="text-sm text-muted-foreground">
            Chats, with their messages, attachments and saved files, are deleted for good this many
            days after their last activity. Leave the days empty to keep them for ever. Members see
            the rule under their Recent list.{' '}
            {data &&
              (data.lastPurgeAt
                ? `Last purge: ${when(data.lastPurgeAt)}.`
                : 'No purge has run yet.')}
          </p>
        </div>
        {retention.isError && (
          <LoadFailure error={retention.error} fallback="Could not load the retention." />
        )}
        {data && (
          <ul className="flex flex-col divide-y rounded-xl border bg-card">
            {data.policies.map((p) => (
              <PolicyRow key={`${p.module}-${p.days ?? 'ever'}`} company={company} policy={p} />
            ))}
          </ul>
        )}
      </section>
      <HoldForm company={company} />
      <ActionList
        label="Legal holds"
        title="Legal holds"
        items={data?.holds}
        empty="No legal hold."
        row={(h) => (
          <>
            <p className="font-medium break-words">{holdLabel(h)}</p>
            <p className="text-sm break-words text-muted-foreground">
              {h.reason ? `${h.reason} · ` : ''}placed {when(h.createdAt)}
              {h.createdByEmail ? ` by ${h.createdByEmail}` : ''}
            </p>
          </>
        )}
        action="Lift"
        actionLabel={(h) => `Lift the hold: ${holdLabel(h)}`}
        pending={remove.isPending}
        onAction={(h) =>
          remove.mutate(
            { company, id: h.id },
            {
              onSuccess: () => toast({ title: 'Legal hold lifted' }),
              onError: toastFailure('Could not lift the hold'),
            },
          )
        }
      />
    </div>
  );
}

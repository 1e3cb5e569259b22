import * as React from 'react';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type { AdminStarterDto } from '@contract/admin';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { MODULE_OPTIONS } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import type { StartersFilter } from '@/api/admin';
import {
  useAdminStarters,
  useCreateStarter,
  useEditStarter,
  useRetireStarter,
} from '@/features/admin/api/admin-api';
import { Pager } from './pager';
import { EmptyItem, Field, LoadFailure, RetirableRow, SelectField, TextField } from './panel-parts';

/** Starters shown a page at a time. */
const PAGE = 10;

interface Draft {
  id: number | null;
  module: ModuleKey;
  taskType: string;
  name: string;
  description: string;
}
const EMPTY: Draft = { id: null, module: 'brand-hub', taskType: '', name: '', description: '' };

/** Starters: the company's own (create, edit, retire) beside the global library; operators may edit the global one. */
export function StartersPanel({ company, operator }: { company?: number; operator: boolean }) {
  const [scope, setScope] = React.useState<'company' | 'global'>('company');
  const [q, setQ] = React.useState('');
  const filter: StartersFilter = { company, scope: operator ? scope : undefined, q };
  const list = useAdminStarters(filter);
  const [draft, setDraft] = React.useState<Draft>(EMPTY);
  const create = useCreateStarter();
  const edit = useEditStarter();
  const retire = useRetireStarter();
  const fail = (err: unknown) =>
    toast({ variant: 'destructive', title: serverMessage(err, 'Could not save the starter') });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { id, module, ...fields } = draft;
    if (id === null)
      create.mutate(
        { filter, body: { module, ...fields } },
        {
          onSuccess: (s) => {
            toast({ title: `Starter "${s.name}" created` });
            setDraft(EMPTY);
          },
          onError: fail,
        },
      );
    else
      edit.mutate(
        { id, body: fields },
        {
          onSuccess: (s) => {
            toast({ title: `Starter "${s.name}" saved` });
            setDraft(EMPTY);
          },
          onError: fail,
        },
      );
  };

  return (
    <div className="flex flex-col gap-4">
      {operator && (
        <div role="group" aria-label="Whose starters" className="flex gap-2">
          {(['company', 'global'] as const).map((s) => (
            <Button
              key={s}
              variant={scope === s ? 'default' : 'outline'}
              aria-pressed={scope === s}
              onClick={() => setScope(s)}
            >
              {s === 'company' ? "The company's own" : 'Global library'}
            </Button>
          ))}
        </div>
      )}
      <form onSubmit={submit} className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2">
        <h3 className="text-lg font-semibold sm:col-span-2">
          {draft.id === null ? 'New starter' : `Edit "${draft.name}"`}
        </h3>
        <SelectField
          labelId="starter-module-label"
          label="Module"
          options={MODULE_OPTIONS}
          value={draft.module}
          disabled={draft.id !== null}
          onChange={(module) => setDraft({ ...draft, module })}
        />
        <TextField
          id="starter-task"
          label="Task type"
          required
          maxLength={100}
          value={draft.taskType}
          onValue={(v) => setDraft({ ...draft, taskType: v })}
        />
        <TextField
          id="starter-name"
          label="Name"
          className="sm:col-span-2"
          required
          maxLength={255}
          value={draft.name}
          onValue={(v) => setDraft({ ...draft, name: v })}
        />
        <Field id="starter-description" label="Description" className="sm:col-span-2">
          <Textarea
            id="starter-description"
            required
            value={draft.description}
            onChange={(e) => setDraft({ ...draft, description: e.target.value })}
          />
        </Field>
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={create.isPending || edit.isPending}>
            {draft.id === null ? 'Create starter' : 'Save starter'}
          </Button>
          {draft.id !== null && (
            <Button type="button" variant="ghost" onClick={() => setDraft(EMPTY)}>
              Cancel
            </Button>
          )}
        </div>
      </form>
      <TextField id="starter-search" label="Search starters" value={q} onValue={setQ} />
      {list.isError && <LoadFailure error={list.error} fallback="Could not load the starters." />}
      <StarterList
        title={operator && scope === 'global' ? 'Global library' : "The company's own"}
        items={list.data?.own ?? []}
        onEdit={(s) =>
          setDraft({
            id: s.id,
            module: s.module,
            taskType: s.taskType,
            name: s.name,
            description: s.description,
          })
        }
        onRetire={(s) => retire.mutate({ id: s.id, retired: !s.retired }, { onError: fail })}
      />
      {(list.data?.global.length ?? 0) > 0 && (
        <StarterList title="Global library (read-only)" items={list.data!.global} />
      )}
    </div>
  );
}

function StarterList({
  title,
  items,
  onEdit,
  onRetire,
}: {
  title: string;
  items: AdminStarterDto[];
  onEdit?: (s: AdminStarterDto) => void;
  onRetire?: (s: AdminStarterDto) => void;
}) {
  const [page, setPage] = React.useState(1);
  const last = Math.max(1, Math.ceil(items.length / PAGE));
  const shown = items.slice((Math.min(page, last) - 1) * PAGE, Math.min(page, last) * PAGE);
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">{title}</h3>
      <ul className="flex flex-col divide-y rounded-xl border bg-card">
        {shown.map((s) => (
          <RetirableRow
            key={s.id}
            name={s.name}
            retired={s.retired}
            action={onEdit && { label: 'Edit', onClick: () => onEdit(s) }}
            onRetire={onRetire && (() => onRetire(s))}
          >
            <p className="text-sm text-muted-foreground">
              {MODULES[s.module].name} · {s.taskType}
            </p>
            <p className="text-sm">{s.description}</p>
          </RetirableRow>
        ))}
        {items.length === 0 && <EmptyItem>No starters yet</EmptyItem>}
      </ul>
      <Pager
        label={`${title}: pages`}
        page={Math.min(page, last)}
        of={{ pageSize: PAGE, total: items.length }}
        onPage={setPage}
      />
    </section>
  );
}

import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import {
  useCompanies,
  useCreateCompany,
  useProviders,
  useRetireCompany,
} from '@/features/admin/api/admin-api';
import { Pager } from './pager';
import { RetirableRow, TextField, toastFailure } from './panel-parts';

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Companies (operators): create, retire, open one; and the providers' health. */
export function CompaniesPanel({ onOpen }: { onOpen: (id: number) => void }) {
  const [q, setQ] = React.useState('');
  const [page, setPage] = React.useState(1);
  const companies = useCompanies(q, page, true);
  const retire = useRetireCompany();
  return (
    <div className="flex flex-col gap-6">
      <NewCompanyForm />
      <TextField
        id="company-search"
        label="Search companies"
        value={q}
        placeholder="Name or domain"
        onValue={(v) => {
          setQ(v);
          setPage(1);
        }}
      />
      <ul aria-label="Companies" className="flex flex-col divide-y rounded-xl border bg-card">
        {companies.data?.companies.map((c) => (
          <RetirableRow
            key={c.id}
            name={c.name}
            retired={c.retired}
            action={{ label: 'Manage', onClick: () => onOpen(c.id) }}
            onRetire={() =>
              retire.mutate(
                { id: c.id, retired: !c.retired },
                { onError: toastFailure('Could not save') },
              )
            }
          >
            <p className="text-sm text-muted-foreground">
              {c.domains.join(', ') || 'no domains'} · {c.members} member
              {c.members === 1 ? '' : 's'}
            </p>
          </RetirableRow>
        ))}
      </ul>
      {companies.data && (
        <Pager label="Company pages" page={page} of={companies.data} onPage={setPage} />
      )}
      <Providers />
    </div>
  );
}

function NewCompanyForm() {
  const [name, setName] = React.useState('');
  const [domains, setDomains] = React.useState('');
  const create = useCreateCompany();
  return (
    <form
      className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(
          { name, domains: list(domains) },
          {
            onSuccess: (c) => {
              toast({ title: `${c.name} created` });
              setName('');
              setDomains('');
            },
            onError: (err) =>
              toast({ variant: 'destructive', title: serverMessage(err, 'Could not create it') }),
          },
        );
      }}
    >
      <TextField
        id="new-company-name"
        label="New company"
        required
        value={name}
        onValue={setName}
      />
      <TextField
        id="new-company-domains"
        label="Domains (comma-separated)"
        value={domains}
        onValue={setDomains}
      />
      <Button type="submit" disabled={create.isPending}>
        Create company
      </Button>
    </form>
  );
}

function Providers() {
  const providers = useProviders(true);
  return (
    <section aria-labelledby="providers-heading">
      <h3 id="providers-heading" className="mb-2 text-lg font-semibold">
        Model providers
      </h3>
      {providers.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Checking the providers...
        </p>
      ) : (
        <ul className="flex flex-col divide-y rounded-xl border bg-card">
          {providers.data?.map((p) => (
            <li key={p.name} className="flex flex-col gap-1 p-4">
              <p className="flex items-center gap-2 font-medium">
                {p.name}
                <Badge variant={p.answers === false ? 'destructive' : 'secondary'}>
                  {p.answers === null ? 'unused' : p.answers ? 'answers' : 'no answer'}
                </Badge>
              </p>
              <p className="text-sm break-all text-muted-foreground">
                {p.endpoint}
                {p.keySet === null ? '' : p.keySet ? ' · key set' : ' · key not set'}
              </p>
              <p className="text-sm break-words">{p.detail}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

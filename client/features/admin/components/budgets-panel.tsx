import * as React from 'react';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type { BudgetDto, BudgetUnit } from '@contract/admin';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { MODULE_OPTIONS, type Option } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { useBudgets, useRemoveBudget, useSetBudget } from '@/features/admin/api/admin-api';
import {
  EmptyItem,
  Failure,
  LoadFailure,
  SelectField,
  SubmitButton,
  TextField,
} from './panel-parts';

// Monthly budgets (docs/decisions/0070-budgets.md): the company's, a module's, or a person's limit
// in tokens or turns, with what each has used this month. The server checks every send.

const ALL = 'all';
const MODULE_CHOICES: Option<ModuleKey | typeof ALL>[] = [
  { value: ALL, label: 'Every module' },
  ...MODULE_OPTIONS,
];
const UNITS: Option<BudgetUnit>[] = [
  { value: 'tokens', label: 'Tokens (in and out)' },
  { value: 'turns', label: 'Turns' },
];
const number = (n: number) => n.toLocaleString('en-GB');

function scopeOf(b: BudgetDto): string {
  const what = b.module ? MODULES[b.module].name : 'Every module';
  return b.userEmail ? `${b.userEmail} · ${what}` : what;
}

export function BudgetsPanel({ company }: { company?: number }) {
  const budgets = useBudgets(company);
  const set = useSetBudget();
  const remove = useRemoveBudget();
  const [module, setModule] = React.useState<ModuleKey | typeof ALL>(ALL);
  const [email, setEmail] = React.useState('');
  const [unit, setUnit] = React.useState<BudgetUnit>('tokens');
  const [limit, setLimit] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    set.mutate(
      {
        company,
        body: {
          module: module === ALL ? null : module,
          email: email.trim() || null,
          unit,
          limit: Number(limit.replace(/[\s,]/g, '')),
        },
      },
      {
        onSuccess: () => {
          toast({ title: 'Budget saved' });
          setLimit('');
          setEmail('');
        },
        onError: (err) => setError(serverMessage(err, 'Could not save the budget')),
      },
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <h3 className="text-lg font-semibold">Set a monthly budget</h3>
          <p className="text-sm text-muted-foreground">
            When a budget is used up, sends are refused until it resets
            {budgets.data ? ` on ${budgets.data.resetsOn}` : ''}. Admins are told at 75% and 90%.
            Builtin turns count no tokens: cap them in turns.
          </p>
        </div>
        <SelectField
          labelId="budget-module-label"
          label="Module"
          options={MODULE_CHOICES}
          value={module}
          onChange={setModule}
        />
        <TextField
          id="budget-email"
          label="Person (optional)"
          type="email"
          placeholder="Everyone in the company"
          maxLength={255}
          value={email}
          onValue={setEmail}
        />
        <SelectField
          labelId="budget-unit-label"
          label="Limit in"
          options={UNITS}
          value={unit}
          onChange={setUnit}
        />
        <TextField
          id="budget-limit"
          label="Monthly limit"
          inputMode="numeric"
          required
          value={limit}
          onValue={setLimit}
        />
        <Failure error={error} className="sm:col-span-2" />
        <SubmitButton pending={set.isPending} label="Save budget" className="sm:col-span-2" />
      </form>
      {budgets.isError && (
        <LoadFailure error={budgets.error} fallback="Could not load the budgets." />
      )}
      <section aria-label="Budgets" className="flex flex-col gap-3">
        <h3 className="text-lg font-semibold">Budgets this month</h3>
        <ul className="flex flex-col divide-y rounded-xl border bg-card">
          {budgets.data?.budgets.map((b) => {
            const percent = Math.min(100, Math.floor((b.used * 100) / b.limit));
            return (
              <li key={b.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words">{scopeOf(b)}</p>
                  <p className="text-sm text-muted-foreground">
                    {number(b.used)} of {number(b.limit)} {b.unit} used ({percent}%)
                  </p>
                  <Progress
                    value={percent}
                    aria-label={`${scopeOf(b)}: ${percent}% used`}
                    className={percent >= 90 ? 'mt-2 [&>*]:bg-destructive' : 'mt-2'}
                  />
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Remove the budget of ${scopeOf(b)}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(
                      { company, id: b.id },
                      {
                        onError: (err) =>
                          toast({
                            variant: 'destructive',
                            title: serverMessage(err, 'Could not remove the budget'),
                          }),
                      },
                    )
                  }
                >
                  Remove
                </Button>
              </li>
            );
          })}
          {budgets.data?.budgets.length === 0 && (
            <EmptyItem>No budget: sends are never refused for cost.</EmptyItem>
          )}
        </ul>
      </section>
    </div>
  );
}

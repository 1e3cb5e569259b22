import * as React from 'react';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type { BudgetDto, BudgetUnit } from '@contract/admin';
import { Progress } from '@/components/ui/progress';
import { MODULE_OPTIONS, type Option } from '@/components/options-select';
import { useBudgets, useRemoveBudget, useSetBudget } from '@/features/admin/api/admin-api';
import {
  ActionList,
  FormCard,
  LoadFailure,
  SelectField,
  TextField,
  toastFailure,
  useFormCall,
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
  const form = useFormCall();

  const submit = () =>
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
      form.callbacks('Budget saved', 'Could not save the budget', () => {
        setLimit('');
        setEmail('');
      }),
    );

  return (
    <div className="flex flex-col gap-4">
      <FormCard
        title="Set a monthly budget"
        intro={
          <>
            When a budget is used up, sends are refused until it resets
            {budgets.data ? ` on ${budgets.data.resetsOn}` : ''}. Admins are told at 75% and 90%.
            Builtin turns count no tokens: cap them in turns.
          </>
        }
        onSubmit={submit}
        error={form.error}
        pending={set.isPending}
        label="Save budget"
      >
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
      </FormCard>
      {budgets.isError && (
        <LoadFailure error={budgets.error} fallback="Could not load the budgets." />
      )}
      <ActionList
        label="Budgets"
        title="Budgets this month"
        items={budgets.data?.budgets}
        empty="No budget: sends are never refused for cost."
        row={(b) => {
          const percent = Math.min(100, Math.floor((b.used * 100) / b.limit));
          return (
            <>
              <p className="font-medium break-words">{scopeOf(b)}</p>
              <p className="text-sm text-muted-foreground">
                {number(b.used)} of {number(b.limit)} {b.unit} used ({percent}%)
              </p>
              <Progress
                value={percent}
                aria-label={`${scopeOf(b)}: ${percent}% used`}
                className={percent >= 90 ? 'mt-2 [&>*]:bg-destructive' : 'mt-2'}
              />
            </>
          );
        }}
        action="Remove"
        actionLabel={(b) => `Remove the budget of ${scopeOf(b)}`}
        pending={remove.isPending}
        onAction={(b) =>
          remove.mutate(
            { company, id: b.id },
            {
              onError: toastFailure('Could not remove the budget'),
            },
          )
        }
      />
    </div>
  );
}

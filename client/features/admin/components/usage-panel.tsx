import * as React from 'react';
import { DownloadIcon } from 'lucide-react';
import { USAGE_GROUPS, type ModelPrice, type UsageGroupBy } from '@contract/admin';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { usageCsvUrl, type UsageFilter } from '@/api/admin';
import { useModelPrices, useSetModelPrices, useUsage } from '@/features/admin/api/admin-api';
import { PeopleUsage } from './people-usage';
import { Field, FiguresRow, HeaderRow, LoadFailure, Loading, TextField } from './panel-parts';

// The product's own chart, loaded when the tab opens: chart.js stays out of the console's first load.
const ChartCanvas = React.lazy(() => import('@/components/charts/chart-canvas'));

const GROUP_LABELS: Record<UsageGroupBy, string> = {
  day: 'Day',
  module: 'Module',
  model: 'Model',
  starter: 'Starter',
};

const number = new Intl.NumberFormat('en-US');
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 2,
});

/** A UTC day `days` before today, as a date input holds it. */
const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * Usage: turns, active users, tokens, estimated cost and errors over a range of days, by day,
 * module, model or starter, as a chart, a table and a CSV of the same rows. Operators also see
 * every company at once, and set the prices the cost is estimated with.
 */
export function UsagePanel({ company, operator }: { company?: number; operator: boolean }) {
  const [from, setFrom] = React.useState(() => daysAgo(29));
  const [to, setTo] = React.useState(() => daysAgo(0));
  const [groupBy, setGroupBy] = React.useState<UsageGroupBy>('day');
  const [everyCompany, setEveryCompany] = React.useState(false);
  const filter: UsageFilter = {
    company: operator && everyCompany ? undefined : company,
    from,
    to,
    groupBy,
  };
  const usage = useUsage(filter);
  const data = usage.data;
  const tiles = data && [
    ['Turns', number.format(data.totals.turns)],
    ['Active users', number.format(data.totals.activeUsers)],
    ['Tokens in', number.format(data.totals.inputTokens)],
    ['Tokens out', number.format(data.totals.outputTokens)],
    ['Estimated cost', dollars.format(data.totals.cost)],
    ['Errors', number.format(data.totals.errors)],
  ];
  const chart = data && {
    labels: data.rows.map((r) => r.label),
    datasets: [
      { type: 'bar', label: 'Turns', data: data.rows.map((r) => r.turns), yAxisID: 'turns' },
      {
        type: 'line',
        label: 'Tokens',
        data: data.rows.map((r) => r.inputTokens + r.outputTokens),
        yAxisID: 'tokens',
      },
    ],
  };
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-4">
        <legend className="px-1 text-sm font-medium">Range</legend>
        <TextField id="usage-from" label="From" type="date" value={from} onValue={setFrom} />
        <TextField id="usage-to" label="To" type="date" value={to} onValue={setTo} />
        <Field id="usage-group" label="By">
          <select
            id="usage-group"
            value={groupBy}
            onChange={(e) => setGroupBy(e.target.value as UsageGroupBy)}
            className="h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
          >
            {USAGE_GROUPS.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </select>
        </Field>
        <div className="flex flex-col justify-end gap-2">
          {operator && (
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={everyCompany}
                onChange={(e) => setEveryCompany(e.target.checked)}
              />
              Every company
            </label>
          )}
          <Button variant="outline" asChild>
            <a href={usageCsvUrl(filter)} download>
              <DownloadIcon aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        </div>
      </fieldset>
      {usage.isError ? (
        <LoadFailure error={usage.error} fallback="Could not load usage." />
      ) : !data ? (
        <Loading />
      ) : (
        <>
          <dl aria-label="Usage totals" className="grid grid-cols-2 gap-3 sm:grid-cols-6">
            {tiles!.map(([label, value]) => (
              <div key={label} className="rounded-xl border bg-card p-3">
                <dt className="text-xs text-muted-foreground">{label}</dt>
                <dd className="text-lg font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
          {data.unpricedModels.length > 0 && (
            <p className="text-sm text-muted-foreground">
              No price is set for {data.unpricedModels.join(', ')}: the estimated cost leaves
              {data.unpricedModels.length === 1 ? ' it' : ' them'} out.
            </p>
          )}
          <div className="h-72 rounded-xl border bg-card p-3">
            <React.Suspense fallback={null}>
              <ChartCanvas
                type="bar"
                data={chart}
                label={`Usage by ${GROUP_LABELS[groupBy].toLowerCase()}`}
                options={{
                  scales: {
                    turns: { type: 'linear', position: 'left', beginAtZero: true },
                    tokens: {
                      type: 'linear',
                      position: 'right',
                      beginAtZero: true,
                      grid: { drawOnChartArea: false },
                    },
                  },
                }}
                onReady={() => undefined}
              />
            </React.Suspense>
          </div>
          <div className="overflow-x-auto rounded-xl border bg-card">
            <table aria-label="Usage" className="w-full text-sm">
              <HeaderRow
                columns={[
                  GROUP_LABELS[groupBy],
                  'Turns',
                  'Active users',
                  'Tokens in',
                  'Tokens out',
                  'Cost',
                  'Errors',
                ]}
              />
              <tbody className="divide-y">
                {data.rows.map((r) => (
                  <FiguresRow
                    key={r.key}
                    label={r.label}
                    figures={[
                      number.format(r.turns),
                      number.format(r.activeUsers),
                      number.format(r.inputTokens),
                      number.format(r.outputTokens),
                      dollars.format(r.cost),
                      number.format(r.errors),
                    ]}
                  />
                ))}
                {data.rows.length === 0 && (
                  <tr>
                    <td colSpan={7} className="p-6 text-center text-muted-foreground">
                      No turns in this range
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
      <PeopleUsage
        company={filter.company}
        from={from}
        to={to}
        oneCompany={!(operator && everyCompany)}
      />
      {operator && <PricesEditor />}
    </div>
  );
}

/** The operator's prices per million tokens, per model (the builtin has none). */
function PricesEditor() {
  const prices = useModelPrices();
  const save = useSetModelPrices();
  const [model, setModel] = React.useState('');
  const [input, setInput] = React.useState('');
  const [output, setOutput] = React.useState('');
  const list = prices.data ?? [];
  const put = (next: ModelPrice[]) => save.mutate(next);
  return (
    <section
      aria-labelledby="usage-prices"
      className="flex flex-col gap-3 rounded-xl border bg-card p-4"
    >
      <h3 id="usage-prices" className="text-sm font-medium">
        Prices (US dollars per million tokens)
      </h3>
      <ul className="flex flex-col divide-y text-sm">
        {list.map((p) => (
          <li key={p.model} className="flex items-center gap-3 py-1.5">
            <span className="min-w-0 flex-1 break-all">{p.model}</span>
            <span>
              in {p.inputPerMillion} · out {p.outputPerMillion}
            </span>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove the price of ${p.model}`}
              onClick={() => put(list.filter((q) => q.model !== p.model))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="grid gap-2 sm:grid-cols-[1fr_8rem_8rem_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          put([
            ...list.filter((p) => p.model !== model.trim()),
            {
              model: model.trim(),
              inputPerMillion: Number(input),
              outputPerMillion: Number(output),
            },
          ]);
        }}
      >
        <TextField
          id="price-model"
          label="Model"
          value={model}
          onValue={setModel}
          placeholder="openai:gpt-4.1-mini"
          required
        />
        {(
          [
            ['price-in', 'Input', input, setInput],
            ['price-out', 'Output', output, setOutput],
          ] as const
        ).map(([id, label, value, set]) => (
          <div key={id}>
            <Label htmlFor={id} className="mb-1.5">
              {label}
            </Label>
            <Input
              id={id}
              type="number"
              min="0"
              step="any"
              value={value}
              onChange={(e) => set(e.target.value)}
              required
            />
          </div>
        ))}
        <Button type="submit" disabled={save.isPending}>
          Set price
        </Button>
      </form>
      {save.isError && <LoadFailure error={save.error} fallback="Could not save the prices." />}
    </section>
  );
}

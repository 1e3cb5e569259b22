import * as React from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TableIcon } from 'lucide-react';
import {
  COLUMN_ROLES,
  COLUMN_ROLE_LABELS,
  DATE_ORDER_LABELS,
  NumberStyle,
  PAY_BASIS_LABELS,
  TABLE_SHAPE_LABELS,
  type ColumnRole,
  type DateOrder,
  type PayBasis,
  type RatingStep,
  type TableReading,
  type TableShape,
} from '@contract/reading';
import type { ReadingItem } from '@contract/structured-response';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { saveReading } from '@/api/conversation';
import { cn } from '@/lib/utils';
import { refetchChat } from '../api/chat-api';
import { scaleToText, textToScale } from '../lib/rating-scale-text';

/**
 * "Check how I read this file" (docs/decisions/0053-reading-card-ui.md): each table's reading with a dropdown per
 * column and the settings the figures depend on, editable. Confirm stores the reading for the
 * company; "Re-run with this reading" stores it and runs the question again as a new reply.
 */

const FIELD =
  'h-8 w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30';

const ROLE_OPTIONS = [...COLUMN_ROLES].sort((a, b) =>
  COLUMN_ROLE_LABELS[a].localeCompare(COLUMN_ROLE_LABELS[b]),
);

function confirmedDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

export function ReadingCard({
  item,
  chatId,
  messageId,
}: {
  item: ReadingItem;
  chatId: string;
  /** The reply the card belongs to; without it (a partial report) the card is read-only. */
  messageId?: string;
}) {
  const queryClient = useQueryClient();
  const [readings, setReadings] = React.useState<TableReading[]>(item.readings);
  const [busy, setBusy] = React.useState(false);
  const id = React.useId();
  const needs = item.needs ?? [];

  const change = (index: number, patch: Partial<TableReading>) =>
    setReadings((all) => all.map((r, i) => (i === index ? { ...r, ...patch } : r)));

  const submit = async (rerun: boolean) => {
    if (!messageId || busy) return;
    setBusy(true);
    try {
      await saveReading(chatId, { messageId, readings, rerun });
      if (rerun) await refetchChat(queryClient, chatId);
      else
        toast({
          title: 'Reading saved',
          description: 'The next export of this layout is read this way.',
        });
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: serverMessage(err, 'The reading could not be saved. Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className={cn(
        'flex flex-col gap-3 rounded-md border bg-background p-3',
        needs.length > 0 && 'border-primary/60',
      )}
    >
      <div className="flex items-center gap-2">
        <TableIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <h4 id={`${id}-title`} className="text-sm font-semibold">
          Check how I read this file
        </h4>
      </div>
      {item.confirmedAt && (
        <p className="text-xs text-muted-foreground">
          Read as you confirmed on {confirmedDay(item.confirmedAt)}.
        </p>
      )}
      {needs.length > 0 && (
        <p className="text-sm">
          Needed: {needs.map((r) => COLUMN_ROLE_LABELS[r]).join(', ')}. Pick the column that holds{' '}
          {needs.length > 1 ? 'each' : 'it'}.
        </p>
      )}
      {readings.map((r, index) => (
        <TableReadingFields
          key={`${r.signature}-${r.sheet ?? ''}`}
          reading={r}
          needs={needs}
          idPrefix={`${id}-${index}`}
          onChange={(patch) => change(index, patch)}
        />
      ))}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={!messageId || busy}
          onClick={() => void submit(false)}
        >
          Confirm
        </Button>
        <Button size="sm" disabled={!messageId || busy} onClick={() => void submit(true)}>
          Re-run with this reading
        </Button>
      </div>
    </section>
  );
}

function TableReadingFields({
  reading,
  needs,
  idPrefix,
  onChange,
}: {
  reading: TableReading;
  needs: ColumnRole[];
  idPrefix: string;
  onChange: (patch: Partial<TableReading>) => void;
}) {
  const source = reading.sheet ? `${reading.fileName}, sheet ${reading.sheet}` : reading.fileName;
  const setRole = (name: string, role: ColumnRole | null) =>
    onChange({
      columns: reading.columns.map((c) =>
        c.name === name
          ? { ...c, role }
          : // One column per role: giving it here takes it from the other column.
            role && c.role === role
            ? { ...c, role: null }
            : c,
      ),
    });
  const field = (key: string) => `${idPrefix}-${key}`;
  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="mb-1 text-sm font-medium break-all">{source}</legend>
      <div role="group" aria-label={`Columns of ${source}`} className="flex flex-col gap-1.5">
        {reading.columns.map((c, i) => {
          const selectId = `${idPrefix}-col-${i}`;
          return (
            <div
              key={c.name}
              className="grid grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] items-center gap-2"
            >
              <label htmlFor={selectId} className="truncate text-sm" title={c.name}>
                {c.name}
              </label>
              <select
                id={selectId}
                className={FIELD}
                aria-label={`Role of column ${c.name}`}
                value={c.role ?? ''}
                onChange={(e) =>
                  setRole(c.name, e.target.value ? (e.target.value as ColumnRole) : null)
                }
              >
                <option value="">Not used</option>
                {ROLE_OPTIONS.map((role) => (
                  <option key={role} value={role}>
                    {COLUMN_ROLE_LABELS[role]}
                    {needs.includes(role) ? ' (needed)' : ''}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </div>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Field label="Table shape" id={field('shape')}>
          <select
            id={field('shape')}
            className={FIELD}
            value={reading.shape}
            onChange={(e) => onChange({ shape: e.target.value as TableShape })}
          >
            {Object.entries(TABLE_SHAPE_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Person key" id={field('key')}>
          <select
            id={field('key')}
            className={FIELD}
            value={reading.personKey ?? ''}
            onChange={(e) => onChange({ personKey: e.target.value || null })}
          >
            <option value="">None</option>
            {reading.columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Date order" id={field('dates')}>
          <select
            id={field('dates')}
            className={FIELD}
            value={reading.dateOrder ?? ''}
            onChange={(e) => onChange({ dateOrder: (e.target.value || null) as DateOrder | null })}
          >
            <option value="">Not stated</option>
            {Object.entries(DATE_ORDER_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Number style" id={field('numbers')}>
          <select
            id={field('numbers')}
            className={FIELD}
            value={reading.numberStyle ?? ''}
            onChange={(e) =>
              onChange({ numberStyle: (e.target.value || null) as NumberStyle | null })
            }
          >
            <option value="">Not stated</option>
            {NumberStyle.options.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Pay basis" id={field('pay')}>
          <select
            id={field('pay')}
            className={FIELD}
            value={reading.payBasis ?? ''}
            onChange={(e) => onChange({ payBasis: (e.target.value || null) as PayBasis | null })}
          >
            <option value="">Not stated</option>
            {Object.entries(PAY_BASIS_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Full-time hours a week" id={field('hours')}>
          <input
            id={field('hours')}
            className={FIELD}
            type="number"
            inputMode="decimal"
            min={1}
            max={80}
            step={0.5}
            value={reading.fullTimeHours ?? ''}
            onChange={(e) =>
              onChange({ fullTimeHours: e.target.value ? Number(e.target.value) : null })
            }
          />
        </Field>
        <Field label="Currency" id={field('currency')}>
          <input
            id={field('currency')}
            className={FIELD}
            maxLength={10}
            value={reading.currency ?? ''}
            onChange={(e) => onChange({ currency: e.target.value.trim() || null })}
          />
        </Field>
        <Field label="As-of date" id={field('asof')}>
          <input
            id={field('asof')}
            className={FIELD}
            type="date"
            value={reading.asOf ?? ''}
            onChange={(e) => onChange({ asOf: e.target.value || null })}
          />
        </Field>
      </div>
      {reading.ratingScale?.length ||
      reading.columns.some((c) => c.role === 'rating' || c.role === 'previousRating') ? (
        <RatingScaleField
          id={field('scale')}
          scale={reading.ratingScale}
          onChange={(ratingScale) => onChange({ ratingScale })}
        />
      ) : null}
    </fieldset>
  );
}

/**
 * The rating scale, editable as text (one step a line, lowest first): the typed text is kept as
 * typed, and the scale it states goes into the reading.
 */
function RatingScaleField({
  id,
  scale,
  onChange,
}: {
  id: string;
  scale: RatingStep[] | null;
  onChange: (scale: RatingStep[] | null) => void;
}) {
  const [text, setText] = React.useState(() => scaleToText(scale));
  return (
    <Field label="Rating scale, lowest first: one step a line, as Label = other spellings" id={id}>
      <textarea
        id={id}
        className={cn(FIELD, 'h-auto min-h-20 py-1.5 font-mono text-xs')}
        rows={Math.min(8, Math.max(3, text.split('\n').length))}
        value={text}
        placeholder={'Below = 1\nMeets = 2\nExceeds = 3'}
        onChange={(e) => {
          setText(e.target.value);
          onChange(textToScale(e.target.value));
        }}
      />
    </Field>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      {children}
    </div>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { COLUMN_ROLE_LABELS } from '@contract/reading';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { deleteReading, readingsKey, readingsQueryOptions } from '@/api/readings';
import { EmptyItem, LoadFailure } from './panel-parts';

// Remembered readings (docs/decisions/0052-remembered-readings.md): the layouts the company's
// users confirmed in "Check how I read this file", read that way at once; deleting one makes the
// analyst guess that layout again (and show the card).

export function ReadingsPanel({ company }: { company?: number }) {
  const client = useQueryClient();
  const readings = useQuery(readingsQueryOptions(company));
  const remove = useMutation({
    mutationFn: (id: number) => deleteReading(id, company),
    onSuccess: (data) => client.setQueryData(readingsKey(company), data),
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: serverMessage(err, 'Could not delete the reading'),
      }),
  });
  return (
    <section aria-label="Remembered readings" className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Remembered readings</h3>
      <p className="text-sm text-muted-foreground">
        File layouts your people confirmed in &ldquo;Check how I read this file&rdquo;. The next
        export of each layout is read this way at once.
      </p>
      {readings.isError && (
        <LoadFailure error={readings.error} fallback="Could not load the readings." />
      )}
      <ul className="flex flex-col divide-y rounded-xl border bg-card">
        {readings.data?.readings.map((r) => {
          const name = r.sheet ? `${r.fileName}, sheet ${r.sheet}` : r.fileName;
          const when = new Date(r.confirmedAt).toLocaleDateString('en-GB', {
            day: 'numeric',
            month: 'short',
            year: 'numeric',
          });
          return (
            <li key={r.id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start">
              <div className="min-w-0 flex-1">
                <p className="font-medium break-all">{name}</p>
                <p className="text-sm text-muted-foreground">
                  Confirmed {r.confirmedBy ? `by ${r.confirmedBy} ` : ''}on {when}
                </p>
                <p className="mt-1 text-sm break-words">
                  {r.columns
                    .filter((c) => c.role)
                    .map((c) => `${c.name} → ${COLUMN_ROLE_LABELS[c.role!]}`)
                    .join('; ')}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Delete the reading of ${name}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(r.id)}
              >
                Delete
              </Button>
            </li>
          );
        })}
        {readings.data?.readings.length === 0 && (
          <EmptyItem>No remembered reading: every file is read as found.</EmptyItem>
        )}
      </ul>
    </section>
  );
}

import { queryOptions } from '@tanstack/react-query';
import { ReadingsAnswer } from '@contract/reading';
import { adminKey } from './admin';
import { http } from './http';
import { queryString } from './query-string';

// Remembered readings (docs/decisions/0052-remembered-readings.md), in the admin console, which
// carries the contract's schemas already.

export const readingsKey = (company: number | undefined) =>
  [...adminKey, 'readings', queryString({ company })] as const;

/** GET /api/admin/readings: the layouts the company's users confirmed. */
export function readingsQueryOptions(company: number | undefined) {
  return queryOptions({
    queryKey: readingsKey(company),
    queryFn: ({ signal }) =>
      http('GET', `/api/admin/readings${queryString({ company })}`, ReadingsAnswer, { signal }),
  });
}

/** DELETE /api/admin/readings/{id}: the readings left. */
export const deleteReading = (id: number, company: number | undefined) =>
  http('DELETE', `/api/admin/readings/${id}${queryString({ company })}`, ReadingsAnswer);

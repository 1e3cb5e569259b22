/**
 * Which column of the user's table each field was read from, as a register review states it:
 * `owner = "Risk owner", due = "Review date"` (fields with no column left out).
 */
export const columnsRead = (columns: Record<string, string | null>): string =>
  Object.entries(columns)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} = "${v}"`)
    .join(', ');

/**
 * Structured data in a user message (a JSON object or array as its whole text): shown as the
 * "Sending data to agent" card instead of a wall of JSON. Null for ordinary text.
 */
export function structuredDataOf(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']')))
    return null;
  try {
    const value: unknown = JSON.parse(t);
    return value !== null && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

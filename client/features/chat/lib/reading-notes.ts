/**
 * Brings the latest "How I read your file" notes into view and gives them focus (the step
 * "pick a column" points there until the reading card takes that place; ADR 0056). With no
 * notes on the page, `otherwise` runs (the message box takes the cursor).
 */
export function showReadingNotes(otherwise: () => void): void {
  const headings = Array.from(
    document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, p > strong:only-child'),
  ).filter((h) => /^how i read/i.test(h.textContent?.trim() ?? ''));
  const notes = headings.at(-1);
  if (!notes) return otherwise();
  notes.setAttribute('tabindex', '-1');
  notes.scrollIntoView({ block: 'start', behavior: 'smooth' });
  notes.focus({ preventScroll: true });
}

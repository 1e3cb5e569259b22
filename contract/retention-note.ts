// Zod-free, so the module pages that show the note do not carry the schemas (ADR 0011).

/** What members read under the Recent list of a module whose chats are deleted. */
export function retentionNote(moduleName: string, days: number): string {
  return `Chats in ${moduleName} are deleted ${days} ${days === 1 ? 'day' : 'days'} after their last message`;
}

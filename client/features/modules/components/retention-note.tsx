import { useQuery } from '@tanstack/react-query';
import type { ChatModule } from '@contract/chats';
import { retentionNote } from '@contract/retention-note';
import { memberRetentionQueryOptions } from '@/api/retention';

/**
 * Under the Recent list: "Chats in Talent Intelligence are deleted 90 days after their last
 * message" when the company deletes the module's chats; nothing when they are kept for ever.
 */
export function RetentionNote({ module, moduleName }: { module: ChatModule; moduleName: string }) {
  const { data } = useQuery(memberRetentionQueryOptions);
  const policy = data?.policies.find((p) => p.module === module);
  if (!policy) return null;
  return (
    <p data-testid="retention-note" className="mt-3 px-1 text-xs text-muted-foreground">
      {retentionNote(moduleName, policy.days)}
    </p>
  );
}

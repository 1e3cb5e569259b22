import { useQuery } from '@tanstack/react-query';
import type { ChatModule } from '@contract/chats';
import type { MemberRetentionAnswer } from '@contract/retention';
import { retentionNote } from '@contract/retention-note';
import { apiJson } from '@/lib/api';

/** GET /api/retention: the company's rules that delete chats (ADR 0071). */
export const retentionKey = ['/api/retention'] as const;

/**
 * Under the Recent list: "Chats in Talent Intelligence are deleted 90 days after their last
 * message" when the company deletes the module's chats; nothing when they are kept for ever.
 */
export function RetentionNote({ module, moduleName }: { module: ChatModule; moduleName: string }) {
  const { data } = useQuery({
    queryKey: retentionKey,
    queryFn: () => apiJson<MemberRetentionAnswer>('GET', '/api/retention'),
    staleTime: 5 * 60_000,
  });
  const policy = data?.policies.find((p) => p.module === module);
  if (!policy) return null;
  return (
    <p data-testid="retention-note" className="mt-3 px-1 text-xs text-muted-foreground">
      {retentionNote(moduleName, policy.days)}
    </p>
  );
}

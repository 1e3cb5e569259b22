import type { ModuleKey } from '@contract/modules';
import { ChatListItem } from '@/features/chats/components/chat-list-item';
import { ModulePage } from '@/features/modules/module-page';

/** A module page with the chats feature's list item in its Recent list (rename, export, delete). */
export function ModuleRoute({ module }: { module: ModuleKey }) {
  return <ModulePage module={module} ChatItem={ChatListItem} />;
}

import * as React from 'react';
import { MenuOnDemand } from '@/components/ui/menu-on-demand';
import { ChatMenuButton, type ChatMenuProps } from './chat-menu-button';

const ChatMenuDropdown = React.lazy(() =>
  import('./chat-menu-dropdown').then((m) => ({ default: m.ChatMenuDropdown })),
);

/** A chat's actions: rename, export (Markdown, JSON) and delete; the menu loads when opened. */
export function ChatMenu(props: ChatMenuProps) {
  return (
    <MenuOnDemand trigger={<ChatMenuButton title={props.chat.title} className={props.className} />}>
      <ChatMenuDropdown {...props} />
    </MenuOnDemand>
  );
}

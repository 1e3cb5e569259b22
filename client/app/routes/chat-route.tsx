import { ChatPage, type ChatPageParts } from '@/features/chat/chat-page';
import { useChatActions } from '@/features/chats/api/chats-api';
import { ChatMenu } from '@/features/chats/components/chat-menu';
import { RenameTitleInput } from '@/features/chats/components/rename-title';
import { SavedFilesPanel } from '@/features/files/components/saved-files-panel';

// The chat page with the pieces of other features it shows: renaming and the actions menu of the
// chats feature (with its Undo on delete), the saved files of the files feature.
const parts: ChatPageParts = {
  RenameInput: function ChatRename({ chat, onDone, className }) {
    const { rename } = useChatActions();
    return (
      <RenameTitleInput
        title={chat.title}
        onSave={(title) => rename(chat.id, title)}
        onDone={onDone}
        className={className}
      />
    );
  },
  Menu: function ChatActionsMenu({ chat, onRename, onDeleted, className }) {
    const { remove } = useChatActions();
    return (
      <ChatMenu
        chat={chat}
        className={className}
        onRename={onRename}
        onDelete={() => void remove(chat, onDeleted)}
      />
    );
  },
  SavedFiles: SavedFilesPanel,
};

export function ChatRoute({ id }: { id: string }) {
  return <ChatPage id={id} parts={parts} />;
}

import * as React from 'react';
import { useLocation } from 'wouter';
import { Loader2Icon, PlusIcon } from 'lucide-react';
import { MODULES } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type { StarterDto } from '@contract/starters';
import { MODULE_ICONS } from '@/components/module-icon';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { useCreateChat } from './api/chats';
import { LibraryPanel } from './components/library-panel';
import { RecentChats, type ChatItem } from './components/recent-chats';
import { StarterTemplates } from './components/starter-templates';
import { chatPath, templatePrefill } from './lib/start-chat';

/**
 * A module page (/brand-hub, /governance, /talent-intelligence): the Recent list, the main
 * button that starts a chat, and the starter templates. Rendered inside the signed-in shell,
 * whose header holds the page's h1. `ChatItem` draws one recent chat (the chats feature's list
 * item, composed in by client/app).
 */
export function ModulePage({ module, ChatItem }: { module: ModuleKey; ChatItem: ChatItem }) {
  const info = MODULES[module];
  const Icon = MODULE_ICONS[module];
  const [, navigate] = useLocation();
  const createChat = useCreateChat();
  // Which button started the pending create: its own spinner, every other button waits.
  const [pendingSource, setPendingSource] = React.useState<'main' | number | null>(null);

  const start = (source: 'main' | StarterDto) => {
    if (createChat.isPending) return;
    setPendingSource(source === 'main' ? 'main' : source.id);
    createChat.mutate(
      { title: info.defaultChatTitle, module },
      {
        onSuccess: (chat) => {
          navigate(
            source === 'main'
              ? chatPath(chat.id)
              : chatPath(chat.id, templatePrefill(source.description), source.id),
          );
        },
        onError: (err) => {
          toast({
            title: 'Error',
            description: serverMessage(
              err,
              source === 'main' ? 'Failed to create new chat' : 'Failed to create chat',
            ),
            variant: 'destructive',
          });
        },
        onSettled: () => setPendingSource(null),
      },
    );
  };

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-6 p-4 sm:p-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between lg:col-start-2">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 className="text-xl font-semibold tracking-tight">{info.name}</h2>
            <p className="text-sm text-muted-foreground">
              Start a chat, or begin from a template below.
            </p>
          </div>
        </div>
        <Button
          size="lg"
          className="w-full sm:w-auto"
          disabled={createChat.isPending}
          onClick={() => start('main')}
        >
          {pendingSource === 'main' ? (
            <Loader2Icon className="animate-spin" aria-hidden="true" />
          ) : (
            <PlusIcon aria-hidden="true" />
          )}
          {info.newChatLabel}
        </Button>
      </div>

      <aside className="lg:sticky lg:top-20 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:self-start">
        {/* Atrium lists Governance chats under their own key; see "Notes on the spec" in the README. */}
        <RecentChats module={module} moduleName={info.name} ChatItem={ChatItem} />
      </aside>

      <div className="lg:col-start-2">
        <StarterTemplates
          module={module}
          heading={info.startersHeading}
          onUse={(template) => start(template)}
          pendingTemplateId={typeof pendingSource === 'number' ? pendingSource : null}
          busy={createChat.isPending}
        />
        <LibraryPanel module={module} />
      </div>
    </div>
  );
}

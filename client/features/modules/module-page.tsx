// PLACEHOLDER: recent chats, new-chat button and starter templates (spec section 2, module pages).
import { MODULES, type ModuleKey } from '@contract/modules';

// Inside the signed-in shell, whose header holds the page h1.
export function ModulePage({ module }: { module: ModuleKey }) {
  return (
    <div className="mx-auto w-full max-w-6xl p-6">
      <h2 className="text-2xl font-semibold tracking-tight">{MODULES[module].name}</h2>
    </div>
  );
}

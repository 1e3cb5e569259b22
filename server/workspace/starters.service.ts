import type { ChatModule } from '@contract/chats';
import type { StarterDto } from '@contract/starters';
import type { ModuleKey } from '@contract/modules';
import type { DbOrTx } from '../db/connect';
import type { Starter } from '../db/schema';
import { listVisibleStarters } from './starters.repo';

export function toStarterDto(s: Starter): StarterDto {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    taskType: s.taskType,
    // The admin command and the seed only ever store module keys (validated by StarterInput).
    module: s.module as ModuleKey,
    ...(s.companyId !== null ? { companyOwn: true } : {}),
  };
}

/**
 * The starter templates of one module the user sees (global and their company's own); the
 * dashboard key has none.
 */
export async function listStarters(
  db: DbOrTx,
  module: ChatModule,
  userId: string,
): Promise<StarterDto[]> {
  if (module === 'dashboard') return [];
  return (await listVisibleStarters(db, module, userId)).map(toStarterDto);
}

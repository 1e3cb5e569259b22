import type { ChatModule } from '@contract/chats';
import type { StarterDto } from '@contract/starters';
import type { ModuleKey } from '@contract/modules';
import type { DbOrTx } from '../db/connect';
import type { Starter } from '../db/schema';
import { listStartersByModule } from './starters.repo';

export function toStarterDto(s: Starter): StarterDto {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    taskType: s.taskType,
    // The admin command and the seed only ever store module keys (validated by StarterInput).
    module: s.module as ModuleKey,
  };
}

/** The starter templates of one module; the dashboard key has none. */
export async function listStarters(db: DbOrTx, module: ChatModule): Promise<StarterDto[]> {
  if (module === 'dashboard') return [];
  return (await listStartersByModule(db, module)).map(toStarterDto);
}

import type { FastifyPluginAsync } from 'fastify';
import { ModuleQuery } from '@contract/chats';
import type { StarterDto } from '@contract/starters';
import { requireUserId } from '../accounts/sessions';
import { parse } from '../lib/validate';
import { listStarters } from './starters.service';

/** GET /api/starters?module=: the module's starter templates, for signed-in users. */
export const startersRoutes: FastifyPluginAsync = async (app) => {
  app.get('/starters', async (req): Promise<StarterDto[]> => {
    requireUserId(req);
    const { module } = parse(ModuleQuery, req.query);
    return listStarters(app.deps.database.db, module);
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ModuleQuery } from '@contract/chats';
import { StarterDto } from '@contract/starters';
import { requireUserId } from '../accounts/sessions';
import { listStarters } from './starters.service';

const schema = { querystring: ModuleQuery, response: { 200: z.array(StarterDto) } };

/** GET /api/starters?module=: the module's starter templates, for signed-in users. */
export const startersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/starters', { schema }, async (req) => {
    return listStarters(app.deps.database.db, req.query.module, requireUserId(req));
  });
};

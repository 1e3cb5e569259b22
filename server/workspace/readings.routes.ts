import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, TurnStartedDto } from '@contract/chats';
import { MessageBody } from '@contract/errors';
import { READING_MESSAGES, ReadingBody } from '@contract/reading';
import { requireUserId } from '../accounts/sessions';
import { confirmReading } from './readings';

/**
 * POST /api/chats/:id/reading (ADR 0052): the readings of a reply's "Check how I read this file"
 * card, stored for the caller's company; with `rerun` (the default) the question runs again on
 * the same files as a new reply, followed like any other (202 with its id).
 */
export const readingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock } = app.deps;
  app.post(
    '/chats/:id/reading',
    {
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        params: IdParams,
        body: ReadingBody,
        response: { 200: MessageBody, 202: TurnStartedDto },
      },
    },
    async (req, reply) => {
      const userId = requireUserId(req);
      const started = await confirmReading(
        { db: database.db, clock, turns: app.turns },
        userId,
        req.params.id,
        req.body,
      );
      if (!started) return reply.code(200).send({ message: READING_MESSAGES.saved });
      return reply.code(202).send(started);
    },
  );
};

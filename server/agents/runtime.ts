import fp from 'fastify-plugin';

/** The turn runtime: filled by the chat workspace and agents issues. */
export const agentsRuntime = fp(async () => {});

import { parseArgs } from 'node:util';
import { MODULES } from '@contract/module-list';
import { RetentionBody } from '@contract/retention';
import type { Database, Db } from '../db/connect';
import { systemClock } from '../lib/clock';
import { ValidationError } from '../lib/errors';
import { parse } from '../lib/validate';
import { countsLine, purgeRetention } from '../workspace/retention-purge';
import { findCompany } from './companies';
import { listPolicies, policyLabel, setPolicy } from './retention';

// `npm run admin -- retention ...` (docs/decisions/0071-retention-policies-and-legal-holds.md).

export const RETENTION_USAGE = `Retention (chats deleted N days after their last activity; for ever by default)
  retention set "<company>" --module <key> (--days N | --forever)
                       sets how long the company keeps the module's chats
  retention show "<company>"
                       each module's policy
  retention purge      runs the purge now (held chats stay); prints what it deleted`;

/** A wrong use of the command (exit 2, with the usage text). */
export class RetentionUsageError extends Error {}

export async function retentionCommand(
  sub: string | undefined,
  args: string[],
  io: { db: Db; database?: Database; out: (t: string) => void },
): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      module: { type: 'string' },
      days: { type: 'string' },
      forever: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const company = async () => {
    if (positionals.length !== 1) throw new RetentionUsageError('Give one company id or name');
    return findCompany(io.db, positionals[0]!);
  };
  switch (sub) {
    case 'set': {
      if ((values.days === undefined) === !values.forever)
        throw new RetentionUsageError('Give --days N or --forever');
      if (values.days !== undefined && !/^\d+$/.test(values.days))
        throw new ValidationError('Days are a whole number');
      const body = parse(RetentionBody, {
        module: values.module,
        days: values.days === undefined ? null : Number(values.days),
      });
      const c = await company();
      await setPolicy(io.db, c.id, body, systemClock.now());
      io.out(`Retention set for ${c.name}: ${policyLabel(body.module, body.days)}.`);
      return;
    }
    case 'show': {
      const c = await company();
      io.out(
        [
          `${c.name}: retention`,
          ...(await listPolicies(io.db, c.id)).map((p) => `  ${policyLabel(p.module, p.days)}`),
        ].join('\n'),
      );
      return;
    }
    case 'purge': {
      if (positionals.length) throw new RetentionUsageError('retention purge takes no company');
      if (!io.database) throw new RetentionUsageError('retention purge needs the database');
      const r = await purgeRetention(io.database, systemClock);
      if (!r.ran) {
        io.out('A purge is running in another process: nothing done.');
        return;
      }
      io.out(
        [
          `Retention purge: ${countsLine(r.totals)}.`,
          ...r.groups.map(
            (g) =>
              `  ${g.companyName}, ${MODULES[g.module]?.name ?? g.module} (${g.days} days): ${countsLine(g)}`,
          ),
        ].join('\n'),
      );
      return;
    }
    default:
      throw new RetentionUsageError(
        sub ? `Unknown retention command "${sub}"` : 'Give a retention command',
      );
  }
}

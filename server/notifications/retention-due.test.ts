import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { NotificationsAnswer } from '@contract/notifications';
import { call } from '../../test-support/accounts';
import { uniqueEmail } from '../../test-support/app';
import { useTestApp } from '../../test-support/server-tests';
import { createUser, signIn } from '../../test-support/factories';
import { chats, companies, legalHolds, retentionPolicies, type User } from '../db/schema';
import { ManualClock } from '../lib/clock';
import { warnOfDeletions } from './retention-due';

// The bell tells a person a week ahead which chats the retention purge will delete, once per
// date, and never of a held chat or one outside the window.

const DAY = 24 * 60 * 60_000;
// Far ahead, as in retention.test.ts: another file's purge on the real clock never reaches these.
const NOW = new Date('2100-11-15T10:00:00Z');
const tag = () => randomBytes(3).toString('hex');

describe('retention warnings in the bell', () => {
  const clock = new ManualClock(NOW);
  const t = useTestApp({ clock });

  async function chatActive(user: User, daysAgo: number, title: string) {
    const at = new Date(NOW.getTime() - daysAgo * DAY);
    const [c] = await t.database.db
      .insert(chats)
      .values({
        userId: user.id,
        title,
        module: 'talent-intelligence',
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return c!.id;
  }

  it('warns of each chat due within 7 days once, and again after it is used and due anew', async () => {
    const db = t.database.db;
    const domain = `due-${tag()}.com`;
    const [company] = await db
      .insert(companies)
      .values({ name: `Due Co ${tag()}` })
      .returning();
    await db
      .insert(retentionPolicies)
      .values({ companyId: company!.id, module: 'talent-intelligence', days: 30 });
    const member = await createUser(db, { email: uniqueEmail(domain), companyId: company!.id });
    const soon = await chatActive(member, 25, 'Attrition Q3'); // deleted on NOW + 5 days
    await chatActive(member, 20, 'Pay gap 2026'); // NOW + 10 days: outside the week
    const held = await chatActive(member, 26, 'Grievance file');
    await db.insert(legalHolds).values({ companyId: company!.id, chatId: held, reason: 'case 12' });

    const bell = async () => {
      const res = await call(t, 'GET', '/api/notifications', undefined, {
        cookie: await signIn(t, member),
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as NotificationsAnswer).notifications.filter(
        (n) => n.kind === 'retention_due',
      );
    };

    await warnOfDeletions({ db, bus: t.bus }, clock.now());
    let told = await bell();
    expect(told.map((n) => [n.title, n.link])).toEqual([
      ['"Attrition Q3" will be deleted on 20 November 2100', `/chat/${soon}`],
    ]);
    expect(told[0]!.body).toContain('A new message in this chat keeps it.');

    // The next day's run finds the same chat due on the same date: nothing new.
    clock.advance(DAY);
    await warnOfDeletions({ db, bus: t.bus }, clock.now());
    expect(await bell()).toHaveLength(1);

    // Used again (a message moves its last activity), then left: due on a later date, told anew.
    await db
      .update(chats)
      .set({ updatedAt: new Date(NOW.getTime() - 24 * DAY) })
      .where(eq(chats.id, soon));
    await warnOfDeletions({ db, bus: t.bus }, clock.now());
    told = await bell();
    expect(told.map((n) => n.title)).toEqual([
      '"Attrition Q3" will be deleted on 21 November 2100',
      '"Attrition Q3" will be deleted on 20 November 2100',
    ]);
  });
});

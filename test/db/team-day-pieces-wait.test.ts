/**
 * SQLite only: a read of a team's day pieces from the team-side model waits for a write
 * transaction open on the app's connection (a membership change moves the model's two tables one
 * statement after the other), and then sees what it committed.
 */
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { insertMember, insertTeam } from '../../src/db/queries/teams.js';
import { listTeamLocalDayPieces } from '../../src/db/queries/team-day-pieces.js';
import { inTransaction } from '../../src/db/transaction.js';
import { DAY_MS } from '../../src/domain/calendar.js';
import { engine, openTestDb } from '../helpers/app.js';
import { seedUser } from '../helpers/seed.js';

describe.skipIf(engine !== 'sqlite')('team day pieces beside an open membership change (sqlite)', () => {
  it('waits for the change to commit', async () => {
    const { db, drop } = await openTestDb();
    try {
      await migrateToLatest(db);
      for (const user of ['owner', 'joiner']) await seedUser(db, user, 0);
      const daily = (user: string, total: bigint) => ({
        user_id: user,
        day: 10,
        source: 'codex',
        model: 'gpt-5',
        input: total,
        cached_input: 0n,
        output: 0n,
        reasoning: 0n,
        total,
        billable: total,
        cost_micros: 0n,
      });
      await db.kysely
        .insertInto('usage_daily')
        .values([daily('owner', 5n), daily('joiner', 7n)])
        .execute();
      await insertTeam(db.kysely, { id: 'team', name: 'Team', slug: 'team', now: 0, ownerId: 'owner' });
      const read = () => listTeamLocalDayPieces(db, 'team', null, 10 * DAY_MS, 11 * DAY_MS, 0);
      const totals = async (p: ReturnType<typeof read>) => (await p).map((piece) => piece.counts.total);
      expect(await totals(read())).toEqual([5n]);

      let during: Promise<bigint[]> | undefined;
      let answered = false;
      await inTransaction(db, async (tx) => {
        await insertMember(tx, 'team', 'joiner', 'member', 0);
        during = totals(read()).finally(() => (answered = true));
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(answered).toBe(false);
      });
      expect(await during).toEqual([12n]);
    } finally {
      await db.close();
      await drop();
    }
  });
});

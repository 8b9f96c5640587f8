/**
 * Upgrading to migration 0020 (both engines): an instance that already has accounts makes its
 * earliest-created one admin and takes the first-admin claim for it, so the next sign-up is not
 * admin; an empty instance's first sign-up becomes admin.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { migrateUpTo } from '../../src/db/migrate.js';
import { capturingLogger, engine, openTestDb, T0, testConfig } from '../helpers/app.js';
import { seedUser } from '../helpers/seed.js';

const BEFORE = '2026_11_28_0019_single_sign_on';
const OLDEST = '00000000-0000-4000-8000-000000000051';
const NEWER = '00000000-0000-4000-8000-000000000052';

async function upgraded(seed: boolean) {
  const { db, drop } = await openTestDb();
  await migrateUpTo(db, BEFORE);
  if (seed) {
    await seedUser(db, NEWER, T0 - 1000, { email: 'newer@example.com' });
    await seedUser(db, OLDEST, T0 - 5000, { email: 'oldest@example.com' });
  }
  const built = await createApp({ config: testConfig(), db, clock: new ManualClock(T0), logger: capturingLogger([]) });
  return {
    built,
    db,
    signUp: (email: string) =>
      built.app.inject({ method: 'POST', url: '/auth/v1/signup', payload: { email, password: 'correct horse' } }),
    close: async () => {
      await built.close();
      await drop();
    },
  };
}

describe(`upgrade to 0020 (${engine})`, () => {
  it('makes the earliest-created account admin; later sign-ups are not', async () => {
    const t = await upgraded(true);
    try {
      const admins = await t.db.kysely
        .selectFrom('users')
        .select(['id', 'admin_since', 'disabled_at'])
        .where('admin_since', 'is not', null)
        .execute();
      expect(admins.map((a) => [a.id, Number(a.admin_since), a.disabled_at])).toEqual([[OLDEST, T0 - 5000, null]]);
      expect((await t.signUp('fresh@example.com')).json().user.app_metadata.role).toBe('user');
    } finally {
      await t.close();
    }
  });

  it('an empty instance: its first sign-up is admin', async () => {
    const t = await upgraded(false);
    try {
      expect((await t.signUp('first@example.com')).json().user.app_metadata.role).toBe('admin');
      expect((await t.signUp('second@example.com')).json().user.app_metadata.role).toBe('user');
    } finally {
      await t.close();
    }
  });
});

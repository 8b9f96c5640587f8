/**
 * @fileoverview `npm run docs:images`: renders the badge and card examples of docs/sharing.md
 * (docs/img/*.svg) through the real app, from a fixture: five users on an in-memory database at a
 * fixed instant, twelve weeks of usage, the first one public as "Ada Lovelace". Deterministic, so
 * the committed images change only when the rendering does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openSqlite } from '../src/db/connect.js';
import { createLogger } from '../src/logger.js';
import { JwtService } from '../src/security/jwt.js';

const ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  process.argv[1]?.includes('/dist/') ? '../..' : '..',
);
const OUT = path.join(ROOT, 'docs/img');
const NOW = Date.UTC(2026, 10, 20, 12); // Friday 2026-11-20, 12:00 UTC
const WEEK_MS = 7 * 86_400_000;
const SECRETS = {
  SERVICE_ROLE_KEY: 'tt_service_docs_' + 'd'.repeat(32),
  JWT_SECRET: 'docs-jwt-secret-' + 'e'.repeat(40),
  ANON_KEY: 'docs-anon',
};
const USERS = [
  { id: '5f0c2a4e-7b1d-4c3a-9e2f-1a2b3c4d5e6f', name: 'Ada Lovelace', scale: 1 },
  { id: '0a1b2c3d-0000-4000-8000-000000000002', name: 'Grace', scale: 1.6 },
  { id: '0a1b2c3d-0000-4000-8000-000000000003', name: 'Linus', scale: 0.5 },
  { id: '0a1b2c3d-0000-4000-8000-000000000004', name: 'Barbara', scale: 0.3 },
  { id: '0a1b2c3d-0000-4000-8000-000000000005', name: 'Ken', scale: 0.1 },
];
/** Ada's weekly rhythm (millions of tokens), oldest week first; other users are scaled copies. */
const RHYTHM = [0, 2.1, 5.4, 3.9, 0, 7.8, 9.2, 6.1, 11, 8.3, 14.9, 12.4];

async function main(): Promise<void> {
  const config = loadConfig({
    ...SECRETS,
    DATA_DIR: '/nonexistent-tokentally-docs-dir',
    JOBS_ENABLED: 'false',
    PASSWORD_SCRYPT_COST: '32768',
  });
  const db = openSqlite(':memory:');
  const built = await createApp({ config, db, clock: new ManualClock(NOW), logger: createLogger('warn') });
  const { app } = built;
  const service = { authorization: `Bearer ${SECRETS.SERVICE_ROLE_KEY}` };
  try {
    const jwt = new JwtService(SECRETS.JWT_SECRET, 3600);
    for (const user of USERS) {
      // Fixed ids and names (the sign-up API would draw random ids).
      await db.kysely
        .insertInto('users')
        .values({
          id: user.id,
          email: `${user.name.toLowerCase()}@example.com`,
          display_name: user.name,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const device = await app.inject({
        method: 'POST',
        url: '/functions/svc-device-token-issue',
        headers: service,
        payload: { user_id: user.id, device_name: 'laptop', platform: 'linux' },
      });
      const token = device.json<{ token: string }>().token;
      const hourly = RHYTHM.flatMap((millions, w) => {
        const weekStart = NOW - (RHYTHM.length - 1 - w) * WEEK_MS - 2 * 86_400_000;
        const tokens = Math.round(millions * 1_000_000 * user.scale);
        if (tokens === 0) return [];
        const claude = Math.round(tokens * 0.72);
        const at = (offsetMs: number) =>
          new Date(Math.floor((weekStart + offsetMs) / 1_800_000) * 1_800_000).toISOString();
        return [
          {
            hour_start: at(0),
            source: 'claude',
            model: 'claude-sonnet-4-5',
            input_tokens: claude,
            total_tokens: claude,
          },
          {
            hour_start: at(3_600_000),
            source: 'codex',
            model: 'gpt-5-codex',
            input_tokens: tokens - claude,
            total_tokens: tokens - claude,
          },
        ];
      });
      const res = await app.inject({
        method: 'POST',
        url: '/functions/svc-ingest',
        headers: { authorization: `Bearer ${token}` },
        payload: { hourly },
      });
      if (res.statusCode !== 200) throw new Error(`ingest: ${res.statusCode} ${res.body}`);
      const { token: access } = await jwt.sign({ sub: user.id, email: null, sessionId: 'docs' }, NOW);
      await app.inject({
        method: 'POST',
        url: '/functions/svc-public-visibility',
        headers: { authorization: `Bearer ${access}` },
        payload: { enabled: true },
      });
    }
    await app.inject({ method: 'POST', url: '/functions/svc-leaderboard-refresh', headers: service });
    fs.mkdirSync(OUT, { recursive: true });
    const ada = USERS[0]?.id as string;
    const images: [string, string][] = [
      ['badge-week.svg', `/badge/${ada}.svg`],
      ['badge-claude-month.svg', `/badge/${ada}.svg?period=month&metric=claude`],
      ['badge-not-public.svg', `/badge/00000000-0000-4000-8000-000000000000.svg`],
      ['card-light.svg', `/card/${ada}.svg`],
      ['card-dark.svg', `/card/${ada}.svg?theme=dark`],
    ];
    for (const [file, url] of images) {
      const res = await app.inject({ method: 'GET', url });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      fs.writeFileSync(path.join(OUT, file), res.body + '\n');
      console.log(`docs/img/${file}  ← ${url}`);
    }
  } finally {
    await built.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

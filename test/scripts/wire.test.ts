/**
 * @fileoverview The dashboard's wire types (web/src/api/wire.ts) are what `npm run gen:wire` writes
 * from the server's /openapi.json today: a schema changed without generating them again fails here.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WIRE_FILE, wireText } from '../../scripts/gen-wire.js';
import { createTestApp, engine } from '../helpers/app.js';

describe(`the dashboard's wire types (${engine})`, () => {
  it('web/src/api/wire.ts is generated from the current /openapi.json (else: npm run gen:wire)', async () => {
    const t = await createTestApp();
    try {
      const doc: unknown = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const fresh = await wireText(doc);
      const committed = fs.readFileSync(WIRE_FILE, 'utf8');
      expect(committed === fresh, 'web/src/api/wire.ts is stale: run npm run gen:wire').toBe(true);
    } finally {
      await t.close();
    }
  });
});

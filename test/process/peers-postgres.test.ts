/**
 * Peer word between instances on one PostgreSQL database (LISTEN/NOTIFY): a revoked API token
 * told by one instance reaches another, which forgets it at once. PostgreSQL only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDb } from '../../src/db/connect.js';
import { createLogger } from '../../src/logger.js';
import type { PeerMessage } from '../../src/process/peers.js';
import { postgresPeers, type PostgresPeers } from '../../src/process/peers-postgres.js';
import { openTestDb, testDatabaseUrl } from '../helpers/app.js';

describe.skipIf(!testDatabaseUrl)('peer word in PostgreSQL', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('carries a revoked API token to the other instances, not back to its sender', async () => {
    const opened = await openTestDb();
    closers.push(opened.drop, () => opened.db.close());
    const db = opened.db as PostgresDb;
    const logger = createLogger('silent');
    const peers: PostgresPeers[] = [];
    for (let i = 0; i < 2; i++) {
      const p = await postgresPeers(db, testDatabaseUrl as string, logger);
      closers.push(() => p.close());
      peers.push(p);
    }
    const [a, b] = peers as [PostgresPeers, PostgresPeers];
    const heardByA: PeerMessage[] = [];
    a.listen((m) => void heardByA.push(m));
    const heard = new Promise<PeerMessage>((resolve) => b.listen(resolve));
    a.tell({ kind: 'api-token-revoked', tokenId: 'token-1' });
    expect(await heard).toEqual({ kind: 'api-token-revoked', tokenId: 'token-1' });
    expect(heardByA).toEqual([]);
  });
});

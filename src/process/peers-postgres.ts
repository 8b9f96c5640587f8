/**
 * @fileoverview Word between every instance on one PostgreSQL database (and every process of each),
 * by LISTEN/NOTIFY on a channel named after the schema: a price switch made by one instance, or a
 * device, API token or account it revoked or disabled, reaches the others within a round trip. One dedicated connection
 * listens; should it drop, it is opened again after a second, and the handlers hear a message then
 * too (what was said meanwhile is lost, so they reload what they keep anyway).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { listenOn, notifyOn } from '../db/queries/peer-messages.js';
import { currentSchema } from '../db/queries/database.js';
import type { Logger } from 'pino';
import type { PostgresDb } from '../db/connect.js';
import type { PeerMessage, Peers } from './peers.js';

interface Notice {
  readonly from: string;
  readonly message: PeerMessage;
}

export interface PostgresPeers extends Peers {
  close(): Promise<void>;
}

/**
 * The messages taken from the channel: a price switch, and a revoked device or API token or a
 * deleted account (forgotten at once by every instance, not after the caches' few seconds).
 */
function isNotice(value: unknown): value is Notice {
  const v = value as {
    from?: unknown;
    message?: { kind?: unknown; tokenId?: unknown; deviceId?: unknown; userId?: unknown };
  } | null;
  if (typeof v?.from !== 'string') return false;
  const message = v.message;
  switch (message?.kind) {
    case 'prices-changed':
      return true;
    case 'api-token-revoked':
      return typeof message.tokenId === 'string';
    case 'device-revoked':
      return typeof message.deviceId === 'string';
    case 'account-deleted':
    case 'account-disabled':
      return typeof message.userId === 'string';
    default:
      return false;
  }
}

/** Listens on `url` (the pool's own settings, e.g. its search_path, do not matter to a channel). */
export async function postgresPeers(db: PostgresDb, url: string, logger: Logger): Promise<PostgresPeers> {
  const schema = (await currentSchema(db)) ?? 'public';
  const channel = `tokentally_peers:${schema}`;
  const self = randomUUID();
  const handlers = new Set<(message: PeerMessage) => void>();
  let client: pg.Client | undefined;
  let closed = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (n) => {
      let notice: unknown;
      try {
        notice = JSON.parse(n.payload ?? '');
      } catch {
        return;
      }
      if (isNotice(notice) && notice.from !== self) for (const handler of handlers) handler(notice.message);
    });
    next.on('error', (error) => {
      if (closed) return;
      logger.warn({ err: error }, 'peers: lost the LISTEN connection; opening it again');
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      setTimeout(reconnect, 1000).unref();
    });
    await next.connect();
    await listenOn(next, channel);
    client = next;
  };
  const reconnect = () => {
    if (closed || client) return;
    connect().then(
      () => {
        for (const handler of handlers) handler({ kind: 'prices-changed' });
      },
      () => setTimeout(reconnect, 1000).unref(),
    );
  };
  await connect();

  return {
    tell(message) {
      const payload = JSON.stringify({ from: self, message } satisfies Notice);
      notifyOn(db, channel, payload).catch((error: unknown) =>
        logger.warn({ err: error }, 'peers: could not tell the other instances'),
      );
    },
    listen(handler) {
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
      };
    },
    async close() {
      closed = true;
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * @fileoverview Word between the processes of one server (SERVER_PROCESSES > 1). A process tells
 * its peers what they must know but cannot see in their own memory; the cluster's primary relays
 * each message to every other process. A server of one process has no peers.
 *
 * The messages: the price data was switched (syncPricing, by the admin endpoint or the daily job,
 * runs in one process): the others load the data it kept. An account was deleted: the others
 * forget the credentials of it they remembered (device tokens, the JWT account check), at once
 * rather than when their caches run out. An account was disabled (or made admin or not): the same.
 * A device was revoked: the others forget its cached token. A personal API token was revoked:
 * likewise.
 */
import cluster from 'node:cluster';

export type PeerMessage =
  | { readonly kind: 'prices-changed' }
  | { readonly kind: 'account-deleted'; readonly userId: string }
  | { readonly kind: 'account-disabled'; readonly userId: string }
  | { readonly kind: 'device-revoked'; readonly deviceId: string }
  | { readonly kind: 'api-token-revoked'; readonly tokenId: string };

export interface Peers {
  /** Tells every other process of the server. */
  tell(message: PeerMessage): void;
  /** Runs `handler` for each message another process told; returns the unsubscribe. */
  listen(handler: (message: PeerMessage) => void): () => void;
}

/** A server of one process. */
export const noPeers: Peers = { tell: () => undefined, listen: () => () => undefined };

/** How a peer message travels over the cluster's IPC channel (other traffic is left alone). */
interface Envelope {
  readonly tokentallyPeer: PeerMessage;
}

function isEnvelope(value: unknown): value is Envelope {
  const message = (
    value as { tokentallyPeer?: { kind?: unknown; userId?: unknown; deviceId?: unknown; tokenId?: unknown } } | null
  )?.tokentallyPeer;
  return (
    message?.kind === 'prices-changed' ||
    ((message?.kind === 'account-deleted' || message?.kind === 'account-disabled') &&
      typeof message.userId === 'string') ||
    (message?.kind === 'device-revoked' && typeof message.deviceId === 'string') ||
    (message?.kind === 'api-token-revoked' && typeof message.tokenId === 'string')
  );
}

/** The peers of a cluster worker (through the primary). */
export function clusterPeers(): Peers {
  return {
    tell(message) {
      // Not once the channel is closed (the primary gone: this process is about to exit anyway).
      if (process.connected) process.send?.({ tokentallyPeer: message } satisfies Envelope);
    },
    listen(handler) {
      const onMessage = (value: unknown) => {
        if (isEnvelope(value)) handler(value.tokentallyPeer);
      };
      process.on('message', onMessage);
      return () => process.off('message', onMessage);
    },
  };
}

/** In the primary: passes each peer message on to every worker but its sender. */
export function relayPeerMessages(): void {
  cluster.on('message', (sender, value: unknown) => {
    if (!isEnvelope(value)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker && worker !== sender && worker.isConnected()) worker.send(value);
    }
  });
}

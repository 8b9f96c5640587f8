/**
 * @fileoverview Word between the processes of one server (SERVER_PROCESSES > 1). A process tells
 * its peers what they must know but cannot see in their own memory; the cluster's primary relays
 * each message to every other process. A server of one process has no peers.
 *
 * The one message so far: the price data was switched (syncPricing, by the admin endpoint or the
 * daily job, runs in one process): the others load the data it kept.
 */
import cluster from 'node:cluster';

export type PeerMessage = { readonly kind: 'prices-changed' };

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
  const kind = (value as { tokentallyPeer?: { kind?: unknown } } | null)?.tokentallyPeer?.kind;
  return kind === 'prices-changed';
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

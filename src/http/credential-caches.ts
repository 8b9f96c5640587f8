/**
 * @fileoverview The credential lookups the principal resolver makes on every request, and what
 * this process remembers of their answers (docs/architecture.md, "Processes"): device tokens and
 * personal API tokens for 10 s, live users for 10 s, live sessions for 5 s. What revokes a
 * credential forgets it here at once (and tells the other processes, which forget it too); a
 * revocation by another program on the database shows within those seconds. Only "yes" answers
 * are remembered, so a new credential works at once.
 */
import type { Clock } from '../clock.js';
import type { ApiTokenFound, CredentialStore } from './principal.js';
import { cachedLookup, TtlCache } from './ttl-cache.js';

interface DeviceCredential {
  userId: string;
  deviceId: string;
}

export class CredentialCaches {
  private readonly liveSessions: TtlCache<string>;
  private readonly deviceTokens: TtlCache<DeviceCredential>;
  private readonly apiTokens: TtlCache<ApiTokenFound>;
  private readonly liveUsers: TtlCache<true>;

  constructor(clock: Clock) {
    this.liveSessions = new TtlCache<string>(clock, 5_000, 50_000);
    this.deviceTokens = new TtlCache<DeviceCredential>(clock, 10_000, 50_000);
    this.apiTokens = new TtlCache<ApiTokenFound>(clock, 10_000, 50_000);
    this.liveUsers = new TtlCache<true>(clock, 10_000, 50_000);
  }

  /** Sessions were ended in this process (sign-out, password change, refresh-token reuse). */
  sessionsEnded(): void {
    this.liveSessions.clear();
  }

  /** A deleted account: its device and API tokens, its JWTs' account check and its sessions. */
  forgetAccount(userId: string): void {
    this.deviceTokens.forgetWhere((token) => token.userId === userId);
    this.apiTokens.forgetWhere((token) => token.userId === userId);
    this.liveUsers.delete(userId);
    this.liveSessions.forgetWhere((owner) => owner === userId);
  }

  forgetDevice(deviceId: string): void {
    this.deviceTokens.forgetWhere((token) => token.deviceId === deviceId);
  }

  forgetApiToken(tokenId: string): void {
    this.apiTokens.forgetWhere((token) => token.tokenId === tokenId);
  }

  /** The resolver's store: `lookups` (uncached, over the database: app.ts) behind these caches. */
  store(lookups: CredentialStore): CredentialStore {
    const userExists = cachedLookup(this.liveUsers, async (id) => ((await lookups.userExists(id)) ? true : undefined));
    return {
      findDeviceToken: cachedLookup(this.deviceTokens, (hash) => lookups.findDeviceToken(hash)),
      findShareToken: (hash) => lookups.findShareToken(hash),
      findApiToken: cachedLookup(this.apiTokens, (hash) => lookups.findApiToken(hash)),
      apiTokenUsed: (tokenId, nowMs) => lookups.apiTokenUsed(tokenId, nowMs),
      userExists: async (id) => (await userExists(id)) === true,
      liveSessionOwner: cachedLookup(this.liveSessions, (sessionId) => lookups.liveSessionOwner(sessionId)),
      userForExternalSubject: (issuer, sub, email) => lookups.userForExternalSubject(issuer, sub, email),
    };
  }
}

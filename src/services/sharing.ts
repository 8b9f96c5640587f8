/**
 * @fileoverview Public visibility and the share token.
 *
 * Turning visibility on draws a random nonce; the token is `tt_share_` + HMAC-SHA256(server key,
 * user id, nonce) (256 bits), so GET can show it again while only its SHA-256 and the nonce are
 * stored. Turning it off drops both: the token is dead at once, and re-enabling draws a new nonce,
 * so an old token never comes back. Rotating JWT_SECRET (from which the key is derived) makes the
 * stored hash unmatchable; the next read then issues a new token.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { enablePublicView, findPublicView, findUserByShareTokenHash, revokePublicView } from '../db/queries/sharing.js';
import { findUserById } from '../db/queries/users.js';
import { Unauthenticated } from '../domain/errors.js';
import { hashToken, hmac, SHARE_TOKEN_PREFIX } from '../security/tokens.js';
import { publicAvatarUrl, publicDisplayName } from './public-profile.js';

export interface VisibilityState {
  enabled: boolean;
  updatedAt: number | undefined;
  shareToken: string | undefined;
}

export interface PublicProfile {
  userId: string;
  displayName: string | null;
  avatarUrl: string | null;
}

export class SharingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly tokenKey: string,
  ) {}

  private tokenFor(userId: string, nonce: string): string {
    return SHARE_TOKEN_PREFIX + hmac(this.tokenKey, 'share-token', userId, nonce);
  }

  private async issue(userId: string): Promise<VisibilityState> {
    const nonce = randomBytes(32).toString('base64url');
    const token = this.tokenFor(userId, nonce);
    const now = this.clock.now();
    await enablePublicView(this.db.kysely, userId, { hash: hashToken(token), nonce }, now);
    return { enabled: true, updatedAt: now, shareToken: token };
  }

  async get(userId: string): Promise<VisibilityState> {
    const row = await findPublicView(this.db.kysely, userId);
    if (!row?.enabled || row.tokenNonce === null)
      return { enabled: false, updatedAt: row?.updatedAt, shareToken: undefined };
    const token = this.tokenFor(userId, row.tokenNonce);
    if (hashToken(token) !== row.tokenHash) return this.issue(userId); // the server key changed
    return { enabled: true, updatedAt: row.updatedAt, shareToken: token };
  }

  /** On keeps a live token; off revokes it at once. */
  async set(userId: string, enabled: boolean): Promise<VisibilityState> {
    const current = await this.get(userId);
    if (enabled) return current.enabled ? current : this.issue(userId);
    if (!current.enabled) return current;
    const now = this.clock.now();
    await revokePublicView(this.db.kysely, userId, now);
    return { enabled: false, updatedAt: now, shareToken: undefined };
  }

  /** For the principal resolver: the user behind a live share token hash. */
  findShareToken(tokenHash: string): Promise<{ userId: string } | undefined> {
    return findUserByShareTokenHash(this.db.kysely, tokenHash);
  }

  async publicProfile(userId: string): Promise<PublicProfile> {
    const user = await findUserById(this.db.kysely, userId);
    if (!user) throw new Unauthenticated('The share token no longer belongs to a user.');
    return { userId, displayName: publicDisplayName(user.display_name), avatarUrl: publicAvatarUrl(user.avatar_url) };
  }
}

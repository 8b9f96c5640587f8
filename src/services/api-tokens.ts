/**
 * @fileoverview Personal API tokens (docs/api-tokens.md): a user creates named read-only tokens
 * (`tt_pat_…`, shown once, stored as SHA-256), lists them with their last use and revokes them.
 * Revoking deletes the token and tells `onRevoked`, which drops it from the credential cache of
 * this process and of its peers, so the next request with it gets 401. A token's use is written at
 * most once a minute.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { lockUserApiTokens } from '../db/locks.js';
import {
  countApiTokens,
  deleteApiToken,
  deleteExpiredApiTokens,
  findApiTokenByHash,
  insertApiToken,
  listApiTokens,
  touchApiToken,
  type ApiTokenCredential,
  type ApiTokenListing,
} from '../db/queries/api-tokens.js';
import { inTransaction } from '../db/transaction.js';
import { Conflict, invalidField, NotFound } from '../domain/errors.js';
import { API_TOKEN_PREFIX, generateToken, hashToken } from '../security/tokens.js';

const DAY_MS = 86_400_000;
/** A token's `last_used_at` moves at most this often. */
export const LAST_USE_INTERVAL_MS = 60_000;
/** Tokens whose last noted use this process remembers (beyond it, the database's condition still holds). */
const NOTED_MAX = 10_000;

export interface CreatedApiToken extends ApiTokenListing {
  /** The token itself: answered once, never stored. */
  token: string;
}

export interface ApiTokenOptions {
  /** Tokens one user may have (MAX_API_TOKENS_PER_USER); expired ones make room when needed. */
  maxPerUser: number;
  /** The token was revoked: forget it wherever it is remembered. */
  onRevoked: (tokenId: string) => void;
}

export class ApiTokenService {
  /** When this process last wrote each token's use. */
  private readonly noted = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: ApiTokenOptions,
  ) {}

  /**
   * A new token for the user; a conflict when they already have the most allowed. Expired tokens
   * stay listed until revoked, but make room when the user is at the bound (they are deleted then),
   * so a user's stored tokens never pass it.
   */
  async create(userId: string, rawName: string, expiresInDays: number | undefined): Promise<CreatedApiToken> {
    const name = rawName.trim();
    if (name === '') throw invalidField({ in: 'body', field: 'name' }, 'must not be blank');
    const now = this.clock.now();
    const token = generateToken(API_TOKEN_PREFIX);
    const row = {
      id: randomUUID(),
      user_id: userId,
      name,
      token_hash: hashToken(token),
      created_at: now,
      expires_at: expiresInDays === undefined ? null : now + expiresInDays * DAY_MS,
    };
    const { maxPerUser } = this.options;
    await inTransaction(this.db, async (tx) => {
      // Two creations of one user at once must not both pass the count (PostgreSQL; SQLite writes one at a time).
      await lockUserApiTokens(this.db, tx, userId);
      let stored = await countApiTokens(tx, userId);
      if (stored >= maxPerUser) stored -= await deleteExpiredApiTokens(tx, userId, now);
      if (stored >= maxPerUser)
        throw new Conflict(`This account already has ${maxPerUser} API tokens, the most allowed; revoke one first.`);
      await insertApiToken(tx, row);
    });
    return { id: row.id, name, createdAt: now, expiresAt: row.expires_at, lastUsedAt: null, token };
  }

  list(userId: string): Promise<ApiTokenListing[]> {
    return listApiTokens(this.db.kysely, userId);
  }

  async revoke(userId: string, tokenId: string): Promise<void> {
    const deleted = await inTransaction(this.db, (tx) => deleteApiToken(tx, userId, tokenId));
    if (!deleted) throw new NotFound('You have no API token with this id.');
    this.noted.delete(tokenId);
    this.options.onRevoked(tokenId);
  }

  /** The token behind a presented token's hash (expired ones too: the caller checks). */
  find(tokenHash: string): Promise<ApiTokenCredential | undefined> {
    return findApiTokenByHash(this.db.kysely, tokenHash);
  }

  /**
   * Notes a use of the token: written at most once a minute (here, and by the statement's own
   * condition across processes). A failed write is dropped: the request it came with goes on.
   */
  async used(tokenId: string, now: number): Promise<void> {
    const last = this.noted.get(tokenId);
    if (last !== undefined && now - last < LAST_USE_INTERVAL_MS) return;
    if (this.noted.size >= NOTED_MAX) this.noted.clear();
    this.noted.set(tokenId, now);
    try {
      await touchApiToken(this.db.kysely, tokenId, now, LAST_USE_INTERVAL_MS);
    } catch {
      this.noted.delete(tokenId);
    }
  }
}

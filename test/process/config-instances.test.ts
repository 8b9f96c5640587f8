/** The settings of several instances: where rate limits are kept, Redis, the metrics token, the schema. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const PG = 'postgres://u@db/tokentally';

describe('instance settings', () => {
  it('keep rate limits locally on SQLite, in the database on PostgreSQL, in Redis with REDIS_URL', () => {
    expect(loadConfig({}).rateLimitStore).toBe('local');
    expect(loadConfig({ DATABASE_URL: PG }).rateLimitStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: PG, REDIS_URL: 'redis://127.0.0.1:6379' }).rateLimitStore).toBe('redis');
    expect(loadConfig({ DATABASE_URL: PG, RATE_LIMIT_STORE: 'local' }).rateLimitStore).toBe('local');
  });

  it('refuse settings that cannot work, naming the variable', () => {
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'database' })).toThrow(/RATE_LIMIT_STORE=database needs PostgreSQL/);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/needs REDIS_URL/);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'memcached' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ DATABASE_URL: PG, DATABASE_SCHEMA: 'a; drop' })).toThrow(/DATABASE_SCHEMA/);
    expect(loadConfig({ DATABASE_URL: PG, DATABASE_SCHEMA: 'tenant_1' }).database).toMatchObject({
      kind: 'postgres',
      schema: 'tenant_1',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { combineWrites } from '../../src/db/queries/ingest-postgres.js';

describe('combineWrites', () => {
  it('renumbers every placeholder, two-digit ones included, and keeps parameter order', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `$${i + 1}`).join(',');
    const combined = combineWrites(
      [
        { sql: 'DELETE FROM a WHERE x = $1', params: ['a1'] },
        { sql: `INSERT INTO b VALUES (${twelve})`, params: Array.from({ length: 12 }, (_, i) => `b${i + 1}`) },
      ],
      { sql: 'INSERT INTO c VALUES ($1, $2)', params: ['c1', 'c2'] },
    );
    expect(combined.sql).toBe(
      `WITH w0 AS (DELETE FROM a WHERE x = $1),\nw1 AS (INSERT INTO b VALUES (${Array.from({ length: 12 }, (_, i) => `$${i + 2}`).join(',')}))\nINSERT INTO c VALUES ($14, $15)`,
    );
    expect(combined.params).toEqual(['a1', ...Array.from({ length: 12 }, (_, i) => `b${i + 1}`), 'c1', 'c2']);
  });

  it('returns the final statement alone when there is nothing to combine', () => {
    expect(combineWrites([], { sql: 'SELECT $1', params: [1] })).toEqual({ sql: 'SELECT $1', params: [1] });
  });
});

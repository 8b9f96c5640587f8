import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { cachedLookup, TtlCache } from '../../src/http/ttl-cache.js';

/** A lookup whose answers the test releases, one at a time, in the order it chooses. */
function heldLookup<V>() {
  const waiting: Array<{ key: string; answer: (value: V | undefined) => void }> = [];
  const lookup = (key: string) => new Promise<V | undefined>((answer) => waiting.push({ key, answer }));
  return { lookup, waiting };
}

type Token = { userId: string; deviceId: string };
const TOKEN: Token = { userId: 'u1', deviceId: 'd1' };

describe('TtlCache and cachedLookup', () => {
  it('remembers a found value for its time, and not a miss', async () => {
    const clock = new ManualClock(0);
    const cache = new TtlCache<Token>(clock, 10_000, 10);
    let calls = 0;
    const find = cachedLookup(cache, async (key) => (calls++, key === 'known' ? TOKEN : undefined));
    expect(await find('known')).toEqual(TOKEN);
    expect(await find('known')).toEqual(TOKEN);
    expect(await find('other')).toBeUndefined();
    expect(await find('other')).toBeUndefined();
    expect(calls).toBe(3);
    clock.advance(10_000);
    expect(await find('known')).toEqual(TOKEN);
    expect(calls).toBe(4);
  });

  // The race: a request's lookup reads the device token as live, the device is revoked (and its
  // cached tokens forgotten) before that lookup's answer arrives, and the answer then put the
  // revoked token back into the cache, where it kept working until the entry expired.
  it('does not keep a value whose lookup began before an invalidation (forgetWhere)', async () => {
    const cache = new TtlCache<Token>(new ManualClock(0), 10_000, 10);
    const held = heldLookup<Token>();
    const find = cachedLookup(cache, held.lookup);
    const racing = find('hash');
    expect(held.waiting).toHaveLength(1);
    cache.forgetWhere((token) => token.deviceId === 'd1'); // the revocation, committed meanwhile
    held.waiting[0]?.answer(TOKEN); // the lookup read the row before the revocation committed
    expect(await racing).toEqual(TOKEN); // that request began before the revocation: it may pass
    expect(cache.get('hash')).toBeUndefined(); // but the token is not remembered
    const next = find('hash');
    expect(held.waiting).toHaveLength(2); // the next request looks it up again
    held.waiting[1]?.answer(undefined);
    expect(await next).toBeUndefined();
  });

  it('does not keep a value whose lookup began before a delete or a clear', async () => {
    const cache = new TtlCache<Token>(new ManualClock(0), 10_000, 10);
    const held = heldLookup<Token>();
    const find = cachedLookup(cache, held.lookup);
    const first = find('a');
    cache.delete('a');
    held.waiting[0]?.answer(TOKEN);
    await first;
    expect(cache.get('a')).toBeUndefined();
    const second = find('b');
    cache.clear();
    held.waiting[1]?.answer(TOKEN);
    await second;
    expect(cache.get('b')).toBeUndefined();
  });

  it('keeps a value whose lookup began after the latest invalidation', async () => {
    const cache = new TtlCache<Token>(new ManualClock(0), 10_000, 10);
    const held = heldLookup<Token>();
    const find = cachedLookup(cache, held.lookup);
    cache.forgetWhere(() => true);
    const looked = find('hash');
    held.waiting[0]?.answer(TOKEN);
    await looked;
    expect(cache.get('hash')).toEqual(TOKEN);
  });

  it('an answer that arrives after an invalidation is dropped even when a later lookup was stored first', async () => {
    const cache = new TtlCache<Token>(new ManualClock(0), 10_000, 10);
    const held = heldLookup<Token>();
    const find = cachedLookup(cache, held.lookup);
    const early = find('hash');
    cache.forgetWhere(() => true);
    const late = find('hash');
    held.waiting[1]?.answer(undefined); // read after the revocation: no such live token
    await late;
    held.waiting[0]?.answer(TOKEN); // the stale answer arrives last
    await early;
    expect(cache.get('hash')).toBeUndefined();
  });
});

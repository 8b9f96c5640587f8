/**
 * @fileoverview The decoded OTLP shapes the receiver reads (the protobufjs messages' camelCase
 * fields, only those used) and attribute access on them.
 */
import { int64BigInt, type Int64 } from './proto.js';

export interface AnyValue {
  /** The name of the field of the `value` oneof that is set (protobufjs keeps defaults on the prototype). */
  value?: string | null;
  stringValue?: string | null;
  intValue?: Int64;
  doubleValue?: number | null;
  boolValue?: boolean | null;
}

export interface KeyValue {
  key?: string | null;
  value?: AnyValue | null;
}

export interface Resource {
  attributes?: KeyValue[] | null;
}

export interface Scope {
  name?: string | null;
  version?: string | null;
}

/**
 * An attribute list read by key (later duplicates win), values kept as decoded. Lookups scan the
 * list from its end: the lists are a few attributes long and each is read a few times, which costs
 * less than building a map per record or data point.
 */
export class Attributes {
  constructor(readonly list: readonly KeyValue[]) {}

  static of(list: KeyValue[] | null | undefined): Attributes {
    return new Attributes(list ?? []);
  }

  private get(key: string): AnyValue | undefined {
    const list = this.list;
    for (let i = list.length - 1; i >= 0; i--) {
      const kv = list[i];
      if (kv?.key === key && kv.value) return kv.value;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** A string attribute (numbers and booleans as their text); undefined when absent or empty. */
  text(key: string): string | undefined {
    const v = this.get(key);
    if (!v) return undefined;
    switch (v.value) {
      case 'stringValue':
        return v.stringValue ? v.stringValue : undefined;
      case 'intValue':
        return String(v.intValue ?? '');
      case 'doubleValue':
        return String(v.doubleValue);
      case 'boolValue':
        return String(v.boolValue);
      default:
        return undefined;
    }
  }

  /**
   * A token count attribute: an integer value, or a string or double holding one. undefined when
   * absent; null when present but not a whole number from 0 to 10^12.
   */
  count(key: string): bigint | undefined | null {
    const v = this.get(key);
    if (!v) return undefined;
    return countOf(v);
  }
}

export const MAX_COUNT = 1_000_000_000_000n;

/** A whole, in-range count from an attribute or a data point value; null otherwise. */
export function countOf(v: AnyValue): bigint | null {
  if (v.value === 'intValue') return intCount(v.intValue);
  if (v.value === 'doubleValue') return doubleCount(v.doubleValue);
  if (v.value === 'stringValue' && typeof v.stringValue === 'string' && /^\d{1,13}$/.test(v.stringValue.trim()))
    return inRange(BigInt(v.stringValue.trim()));
  return null;
}

const MAX_COUNT_NUMBER = Number(MAX_COUNT);

/** An integer count (int64 as decoded): a bigint made only for an in-range value. */
export function intCount(value: Int64): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') {
    // A Long below 2^53 reads exactly as a number; above, it is out of range anyway.
    const n = value.toNumber();
    return Number.isSafeInteger(n) ? (n >= 0 && n <= MAX_COUNT_NUMBER ? BigInt(n) : null) : null;
  }
  return inRange(int64BigInt(value));
}

/** A double count: whole and in range. */
export function doubleCount(value: number | null | undefined): bigint | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_COUNT_NUMBER
    ? BigInt(value)
    : null;
}

const inRange = (n: bigint) => (n < 0n || n > MAX_COUNT ? null : n);

/** A stable text of an attribute list (sorted by key), for series keys and record hashes. */
export function canonical(list: readonly KeyValue[] | null | undefined): string {
  const pairs = (list ?? []).map((kv) => [kv.key ?? '', JSON.stringify(kv.value ?? null)] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('\u0000');
}

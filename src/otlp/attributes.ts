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

/** An attribute list read by key (later duplicates win), values kept as decoded. */
export class Attributes {
  private readonly byKey = new Map<string, AnyValue>();
  constructor(readonly list: readonly KeyValue[]) {
    for (const kv of list) if (kv.key && kv.value) this.byKey.set(kv.key, kv.value);
  }

  static of(list: KeyValue[] | null | undefined): Attributes {
    return new Attributes(list ?? []);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** A string attribute (numbers and booleans as their text); undefined when absent or empty. */
  text(key: string): string | undefined {
    const v = this.byKey.get(key);
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
    const v = this.byKey.get(key);
    if (!v) return undefined;
    return countOf(v);
  }
}

export const MAX_COUNT = 1_000_000_000_000n;

/** A whole, in-range count from an attribute or a data point value; null otherwise. */
export function countOf(v: AnyValue): bigint | null {
  let n: bigint | null = null;
  if (v.value === 'intValue' && v.intValue !== null && v.intValue !== undefined) n = int64BigInt(v.intValue);
  else if (v.value === 'doubleValue' && typeof v.doubleValue === 'number' && Number.isInteger(v.doubleValue))
    n = BigInt(v.doubleValue);
  else if (v.value === 'stringValue' && typeof v.stringValue === 'string' && /^\d{1,13}$/.test(v.stringValue.trim()))
    n = BigInt(v.stringValue.trim());
  if (n === null || n < 0n || n > MAX_COUNT) return null;
  return n;
}

/** A stable text of an attribute list (sorted by key), for series keys and record hashes. */
export function canonical(list: readonly KeyValue[] | null | undefined): string {
  const pairs = (list ?? []).map((kv) => [kv.key ?? '', JSON.stringify(kv.value ?? null)] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('\u0000');
}

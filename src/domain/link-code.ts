/**
 * @fileoverview Link codes people type: 12 Crockford base32 characters (60 random bits) shown as
 * XXXX-XXXX-XXXX; read case-insensitively, hyphens and spaces optional, I/L read as 1 and O as 0.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 12;

export function generateLinkCode(): string {
  const bytes = randomBytes(8);
  let bits = bytes.readBigUInt64BE();
  let code = '';
  for (let i = 0; i < LENGTH; i += 1) {
    code += ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;
}

/** The canonical form of a typed code, or undefined when it cannot be one of ours. */
export function normalizeLinkCode(input: string): string | undefined {
  const cleaned = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (cleaned.length !== LENGTH) return undefined;
  for (const ch of cleaned) if (!ALPHABET.includes(ch)) return undefined;
  return cleaned;
}

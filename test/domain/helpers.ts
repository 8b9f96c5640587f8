import type { UsageRow } from '../../src/domain/usage-row.js';

/** Builds a rollup row at an ISO instant with every count derived from `n` (total = billable = n). */
export function row(iso: string, n: bigint, source = 'codex', model = 'gpt-5'): UsageRow {
  return {
    hourStart: Date.parse(iso),
    source,
    model,
    input: n,
    cached: n / 2n,
    output: n / 4n,
    reasoning: n / 8n,
    total: n,
    billable: n,
  };
}

/** @fileoverview Monthly bars: hand-drawn SVG, exact values on hover and in the table alternative. */
import { exactCount, humanCount, humanMonth } from '../lib/format.js';

export function MonthlyBars({ rows }: { rows: Array<{ month: string; value: number; exact: string }> }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const w = 100 / Math.max(1, rows.length);
  return (
    <div className="bars" role="img" aria-label="Billable tokens per month; the table alternative lists the values">
      <div className="bars-plot">
        {rows.map((r) => (
          <div
            key={r.month}
            className="bar-col"
            style={{ width: `${w}%` }}
            title={`${humanMonth(r.month)}: ${exactCount(r.exact)} tokens`}
          >
            <div className="bar" style={{ height: `${(r.value / max) * 100}%` }} />
          </div>
        ))}
      </div>
      <div className="bars-axis" aria-hidden="true">
        {rows.map((r, i) => (
          <span key={r.month} style={{ width: `${w}%` }}>
            {i % 3 === 0 ? humanMonth(r.month, undefined, true) : ''}
          </span>
        ))}
      </div>
      <div className="bars-max" aria-hidden="true">
        {humanCount(max)}
      </div>
    </div>
  );
}

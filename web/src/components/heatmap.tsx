/**
 * @fileoverview The 52-week activity heatmap, hand-drawn SVG; clicking a day opens that day. A
 * narrow screen shows the latest weeks that fit (never a sideways scroll); the table has them all.
 */
import { useEffect, useRef, useState } from 'react';
import { exactCount, humanDate, humanMonth } from '../lib/format.js';

export interface HeatCell {
  day: string;
  value: string;
  level: number;
}

const CELL = 12;
const GAP = 3;

export function Heatmap({
  weeks: allWeeks,
  weekStartsOn,
  onOpen,
}: {
  weeks: Array<Array<HeatCell | null>>;
  weekStartsOn: 'sun' | 'mon';
  onOpen: (day: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState(0);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const measure = () => setRoom(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // Cells stay at least 9 px: below that, drop the oldest weeks.
  const fit = room > 0 ? Math.max(8, Math.floor(((room * CELL) / 9 - 28) / (CELL + GAP))) : 53;
  const weeks = allWeeks.length > fit ? allWeeks.slice(allWeeks.length - fit) : allWeeks;
  const dayNames =
    weekStartsOn === 'mon' ? ['Mon', '', 'Wed', '', 'Fri', '', ''] : ['', 'Mon', '', 'Wed', '', 'Fri', ''];
  const width = 28 + weeks.length * (CELL + GAP);
  const height = 18 + 7 * (CELL + GAP);
  const months: Array<{ x: number; label: string }> = [];
  let lastMonth = '';
  weeks.forEach((week, w) => {
    const first = week.find((c) => c !== null);
    const month = first?.day.slice(0, 7);
    // A label needs about 22 units of room: none in the last column, where it would be cut.
    if (month && month !== lastMonth && 28 + w * (CELL + GAP) + 22 <= width) {
      // A month label needs about three columns of room: the first is dropped when the next follows closely.
      const previous = months.at(-1);
      if (previous && 28 + w * (CELL + GAP) - previous.x < 3 * (CELL + GAP)) months.pop();
      months.push({ x: 28 + w * (CELL + GAP), label: humanMonth(month, undefined, true) });
      lastMonth = month;
    }
  });
  return (
    <div className="heatmap-box" ref={host}>
      <svg
        className="heatmap"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Daily activity over the last ${weeks.length} weeks`}
      >
        {months.map((m, i) => (
          <text key={i} x={m.x} y={10} className="heat-label">
            {m.label}
          </text>
        ))}
        {dayNames.map((d, i) => (
          <text key={i} x={0} y={18 + i * (CELL + GAP) + CELL - 2} className="heat-label">
            {d}
          </text>
        ))}
        {weeks.map((week, w) =>
          week.map((cell, d) =>
            cell === null ? null : (
              <rect
                key={cell.day}
                data-day={cell.day}
                data-level={cell.level}
                x={28 + w * (CELL + GAP)}
                y={18 + d * (CELL + GAP)}
                width={CELL}
                height={CELL}
                rx={2.5}
                className={`heat-cell level-${cell.level}`}
                onClick={() => onOpen(cell.day)}
              >
                <title>{`${humanDate(cell.day, undefined, true)}: ${exactCount(cell.value)} tokens`}</title>
              </rect>
            ),
          ),
        )}
      </svg>
    </div>
  );
}

export function HeatLegend() {
  return (
    <div className="heat-legend" aria-hidden="true">
      Less
      {[0, 1, 2, 3, 4].map((l) => (
        <svg key={l} width={CELL} height={CELL}>
          <rect width={CELL} height={CELL} rx={2.5} className={`heat-cell level-${l}`} />
        </svg>
      ))}
      More
    </div>
  );
}

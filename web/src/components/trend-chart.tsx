/** @fileoverview The stacked trend (uPlot bars): one layer per source or model; hover shows exact values. */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { exactCount, humanCount, humanUsd } from '../lib/format.js';
import type { Layer } from '../lib/series.js';

import { OTHER_COLOUR, PALETTE } from '../../../src/domain/model-names.js';

export interface TrendProps {
  labels: string[];
  /** Longer labels for the hover legend (e.g. with the date or offset). */
  longLabels: string[];
  layers: Layer[];
  unit: 'tokens' | 'cost';
  /** Slots to mark "not yet synced". */
  unsynced?: boolean[];
  height?: number;
}

function themeColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

export function TrendChart({ labels, longLabels, layers, unit, unsynced, height = 260 }: TrendProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const n = labels.length;
    const xs = Array.from({ length: n }, (_, i) => i);
    // Drawn top layer first, each bar as high as the layers under it plus itself: later bars cover the lower part.
    const cumulative: number[][] = [];
    let running = new Array<number>(n).fill(0);
    for (const layer of layers) {
      running = running.map((v, i) => v + (layer.values[i] ?? 0));
      cumulative.push(running);
    }
    const order = layers.map((_, i) => i).reverse();
    const fmt = (v: number) => (unit === 'cost' ? humanUsd(v) : humanCount(v));
    const exact = (v: number) => (unit === 'cost' ? `≈ ${humanUsd(v)}` : exactCount(Math.round(v)));
    const axisColor = themeColor('--muted');
    const gridColor = themeColor('--grid');
    // Bars fill their slot (a day, week or month) whatever its width, with a small gap.
    const bars = uPlot.paths.bars?.({ size: [n > 200 ? 1 : 0.82, Infinity], gap: n > 200 ? 0 : 1 });
    const colour = (k: number) =>
      layers[k]?.colour ?? (layers[k]?.key === 'other' ? OTHER_COLOUR : PALETTE[k % PALETTE.length]) ?? OTHER_COLOUR;
    const totals = layers.map((l) => l.values.reduce((a, b) => a + b, 0));
    const longest = labels.reduce((m, l) => Math.max(m, l.length), 1);
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height,
      padding: [12, 8, 0, 4],
      scales: {
        x: { time: false, range: [-0.5, n - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
      },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      legend: { live: true },
      axes: [
        {
          stroke: axisColor,
          grid: { show: false },
          ticks: { show: false },
          splits: () => {
            const room = Math.max(56, longest * 7 + 16); // pixels a label needs
            const step = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(((el.clientWidth || 600) - 60) / room))));
            return xs.filter((i) => i % step === 0);
          },
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
          font: '12px system-ui, sans-serif',
        },
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { show: false },
          values: (_u, splits) => splits.map(fmt),
          size: 56,
          font: '12px system-ui, sans-serif',
        },
      ],
      series: [
        {
          label: labels.length > 0 && longLabels[0]?.includes(':') ? 'Half-hour' : 'Day',
          // Not hovering: the legend shows each layer's total for the range.
          value: (_u, v) => (v === null || v === undefined ? 'Range total' : (longLabels[v] ?? '')),
        },
        ...order.map((k) => ({
          label: layers[k]?.label ?? layers[k]?.key ?? '',
          stroke: colour(k),
          fill: colour(k),
          width: 0,
          paths: bars,
          points: { show: false },
          value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) =>
            exact(idx === null ? (totals[k] ?? 0) : (layers[k]?.values[idx] ?? 0)),
        })),
      ],
      hooks: {
        draw: [
          (u) => {
            if (!unsynced?.some(Boolean)) return;
            const ctx = u.ctx;
            const first = unsynced.indexOf(true);
            const last = unsynced.lastIndexOf(true);
            const x0 = u.valToPos(first - 0.5, 'x', true);
            const x1 = u.valToPos(last + 0.5, 'x', true);
            ctx.save();
            ctx.fillStyle = themeColor('--unsynced');
            ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
            ctx.fillStyle = axisColor;
            ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
            ctx.fillText('not yet synced', x0 + 6 * devicePixelRatio, u.bbox.top + 16 * devicePixelRatio);
            ctx.restore();
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [xs, ...order.map((k) => cumulative[k] ?? [])];
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, longLabels, layers, unit, unsynced, height]);
  return (
    <div
      ref={host}
      className="trend-chart"
      role="img"
      aria-label={`Stacked ${unit === 'cost' ? 'cost' : 'token'} chart; the table alternative lists the values`}
    />
  );
}

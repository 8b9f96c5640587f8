/** @fileoverview One range picker for every panel, and the zone (always shown, switchable). */
import { useState } from 'react';
import { isValidZone, zoneLabel } from '../lib/dates.js';
import { PRESETS, PRESET_LABELS, type DateRange, type Preset } from '../lib/ranges.js';
import { humanDate } from '../lib/format.js';

export function RangePicker({
  preset,
  range,
  onPreset,
  onCustom,
}: {
  preset: Preset;
  range: DateRange;
  onPreset: (p: Preset) => void;
  onCustom: (from: string, to: string) => void;
}) {
  return (
    <div className="range-picker">
      <label className="field-inline">
        <span className="sr-only">Range</span>
        <select value={preset} onChange={(e) => onPreset(e.target.value as Preset)} aria-label="Range">
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {PRESET_LABELS[p]}
            </option>
          ))}
        </select>
      </label>
      {preset === 'custom' ? (
        <span className="custom-range">
          <label>
            <span className="sr-only">From</span>
            <input
              type="date"
              value={range.from}
              max={range.to}
              onChange={(e) => e.target.value && onCustom(e.target.value, range.to)}
              aria-label="From"
            />
          </label>
          <span aria-hidden="true">–</span>
          <label>
            <span className="sr-only">To</span>
            <input
              type="date"
              value={range.to}
              min={range.from}
              onChange={(e) => e.target.value && onCustom(range.from, e.target.value)}
              aria-label="To"
            />
          </label>
        </span>
      ) : (
        <span className="range-dates">
          {range.days === 1
            ? humanDate(range.from, undefined, true)
            : `${humanDate(range.from)} – ${humanDate(range.to)}`}
        </span>
      )}
    </div>
  );
}

const COMMON_ZONES = [
  'UTC',
  'America/Los_Angeles',
  'America/New_York',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
];

export function ZonePicker({
  zone,
  browser,
  nowMs,
  onZone,
}: {
  zone: string;
  browser: string;
  nowMs: number;
  onZone: (z: string | null) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(zone);
  if (editing) {
    const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.(
      'timeZone',
    ) ?? [...new Set([browser, zone, ...COMMON_ZONES])];
    return (
      <form
        className="zone-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (isValidZone(text)) {
            onZone(text === browser ? null : text);
            setEditing(false);
          }
        }}
      >
        <label>
          <span className="sr-only">Time zone</span>
          <input
            list="zones"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-label="Time zone"
            aria-invalid={!isValidZone(text)}
            autoFocus
          />
        </label>
        <datalist id="zones">
          {all.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <button className="btn btn-small" type="submit" disabled={!isValidZone(text)}>
          Use
        </button>
        <button className="btn btn-small btn-ghost" type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <button
      type="button"
      className="zone-chip"
      onClick={() => (setText(zone), setEditing(true))}
      aria-label={`Time zone: ${zoneLabel(zone, nowMs)}. Change`}
    >
      <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 7v5l3 2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {zoneLabel(zone, nowMs)}
    </button>
  );
}

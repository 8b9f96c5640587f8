/** @fileoverview The Tokentally mark: three rising bars on the accent colour (or on an accent background). */
export function Logo({ onAccent = false }: { onAccent?: boolean }) {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill={onAccent ? 'rgba(255,255,255,0.18)' : 'var(--accent)'} />
      <rect x="7" y="17" width="4" height="8" rx="1.5" fill="#fff" opacity=".7" />
      <rect x="14" y="11" width="4" height="14" rx="1.5" fill="#fff" opacity=".85" />
      <rect x="21" y="6" width="4" height="19" rx="1.5" fill="#fff" />
    </svg>
  );
}

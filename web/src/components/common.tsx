/** @fileoverview Small shared pieces: error notes with retry, copy buttons, cards, empty states. */
import { useState, type ReactNode } from 'react';

export function ErrorNote({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div className="note note-error" role="alert">
      <span>{message}</span>
      {retry && (
        <button type="button" className="btn btn-small" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
  id,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <section className={`card ${className ?? ''}`} aria-labelledby={id ? `${id}-title` : undefined}>
      {(title || actions) && (
        <header className="card-head">
          {title && <h2 id={id ? `${id}-title` : undefined}>{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 2000);
  };
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} aria-live="polite">
      {done ? 'Copied' : label}
    </button>
  );
}

/** Code with a copy button; `wrap` breaks long lines (URLs) instead of scrolling them. */
export function CodeBlock({
  code,
  label,
  wrap = false,
  testId,
}: {
  code: string;
  label: string;
  wrap?: boolean;
  testId?: string;
}) {
  return (
    <div className={wrap ? 'code-block wrap' : 'code-block'}>
      <pre aria-label={label} data-testid={testId}>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} />
    </div>
  );
}

export function Skeleton({ height = 120 }: { height?: number }) {
  return <div className="skeleton" style={{ height }} aria-hidden="true" />;
}

/** A chart with its accessible table alternative one click away. */
/** A chart with a switch to its table; `table` is drawn only when shown (a year of rows costs a render). */
export function ChartOrTable({ chart, table, label }: { chart: ReactNode; table: () => ReactNode; label: string }) {
  const [asTable, setAsTable] = useState(false);
  return (
    <div>
      <div className="chart-switch">
        <button type="button" className="link-button" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          {asTable ? `Show ${label} as chart` : `Show ${label} as table`}
        </button>
      </div>
      {asTable ? (
        <div className="table-wrap" tabIndex={0} role="region" aria-label={`${label} table`}>
          {table()}
        </div>
      ) : (
        chart
      )}
    </div>
  );
}

export function Avatar({
  url,
  name,
  size = 40,
}: {
  url: string | null | undefined;
  name: string | null | undefined;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const initials =
    (name ?? '?')
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .map((w) => w[0]?.toUpperCase() ?? '')
      .join('') || '?';
  if (url && !failed && url.startsWith(location.origin)) {
    return <img className="avatar" src={url} alt="" width={size} height={size} onError={() => setFailed(true)} />;
  }
  return (
    <span
      className="avatar avatar-initials"
      style={{ width: size, height: size, fontSize: size * 0.4 }}
      aria-hidden="true"
    >
      {initials}
    </span>
  );
}

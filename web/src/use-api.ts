/** @fileoverview Loads one answer for a component: data, error in words, and a retry. */
import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { ApiError } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  retry: () => void;
}

/** Runs `load` whenever `key` changes (aborting the previous run); null key = nothing to load. */
export function useLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key: string | null; data?: T; error?: string }>({ key: null });
  const [tick, setTick] = useState(0);
  // The `load` of the render that asked: a new closure every render, yet only `key` decides a run.
  const run = useEffectEvent((signal: AbortSignal) => load(signal));
  useEffect(() => {
    if (key === null) return;
    const abort = new AbortController();
    run(abort.signal).then(
      (data) => !abort.signal.aborted && setState({ key, data }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setState((s) => ({
          key,
          ...(s.key === key ? { data: s.data } : {}),
          error: error instanceof ApiError ? error.message : String(error),
        }));
      },
    );
    return () => abort.abort();
  }, [key, tick]);
  const retry = useCallback(() => {
    setState((s) => ({ key: null, ...(s.data !== undefined ? { data: s.data } : {}) }));
    setTick((t) => t + 1);
  }, []);
  const current = state.key === key;
  const data = state.data;
  const error = current ? state.error : undefined;
  const loading = !current || (state.data === undefined && state.error === undefined);
  // The same object while nothing changed, so a memoised panel given it does not draw again.
  return useMemo(() => ({ data, error, loading, retry }), [data, error, loading, retry]);
}

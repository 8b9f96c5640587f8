/**
 * @fileoverview The overview's first reads, asked for as the script starts (main.tsx): with the
 * token the session client kept, before it has restored the session and before the first render,
 * so the server answers while the page is still being drawn; the trend's layers as soon as the
 * breakdown says which they are. The overview's own calls take these
 * answers (api.ts `prefetch`); anything else (another page, "all time", no stored session) asks as
 * before.
 */
import { prefetch } from '../api.js';
import { storedAccessToken } from '../auth.js';
import { currentPrefs } from '../prefs.js';
import { viewTime } from '../router.js';
import { firstReads, layerReads, overviewView, type Breakdown } from './overview-data.js';

export function prefetchOverview(): void {
  if (location.pathname !== '/') return;
  const token = storedAccessToken();
  if (token === undefined) return;
  const view = overviewView(new URLSearchParams(location.search), currentPrefs(), viewTime());
  // "All time" starts at the first usage, which the heatmap and the months tell.
  if (view.preset === 'all') return;
  const reads = firstReads(view.resolved, view.zone, view.device);
  for (const read of [reads.daily, reads.previousDaily, reads.hourly]) if (read) void prefetch(read[0], read[1], token);
  // The trend's layers by source or model follow from the breakdown: asked for as soon as it is in,
  // beside the first round, not after the first chart has drawn.
  const by = new URLSearchParams(location.search).get('by') === 'model' ? 'model' : 'source';
  void prefetch(reads.breakdown[0], reads.breakdown[1], token)
    .then(async (res) => {
      if (!res?.ok) return;
      const breakdown = (await res.clone().json()) as Breakdown;
      for (const [op, params] of layerReads(breakdown, view.resolved, view.zone, by, view.device).reads.flat())
        void prefetch(op, params, token);
    })
    .catch(() => undefined);
}

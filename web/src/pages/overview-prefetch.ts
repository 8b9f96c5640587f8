/**
 * @fileoverview The overview's first reads, asked for as the script starts (main.tsx): with the
 * token the session client kept, before it has restored the session and before the first render,
 * so the server answers while the page is still being drawn. The overview's own calls take these
 * answers (api.ts `prefetch`); anything else (another page, "all time", no stored session) asks as
 * before.
 */
import { prefetch } from '../api.js';
import { storedAccessToken } from '../auth.js';
import { currentPrefs } from '../prefs.js';
import { viewTime } from '../router.js';
import { firstReads, overviewView } from './overview-data.js';

export function prefetchOverview(): void {
  if (location.pathname !== '/') return;
  const token = storedAccessToken();
  if (token === undefined) return;
  const view = overviewView(new URLSearchParams(location.search), currentPrefs(), viewTime());
  // "All time" starts at the first usage, which the heatmap and the months tell.
  if (view.preset === 'all') return;
  const reads = firstReads(view.resolved, view.zone, view.device);
  for (const read of [reads.daily, reads.previousDaily, reads.breakdown, reads.hourly])
    if (read) prefetch(read[0], read[1], token);
}

/**
 * @fileoverview The overview's reads, asked for as the script starts (main.tsx): with the token the
 * session client kept, before it has restored the session and before the first render, so the
 * server answers while the page is still being drawn (render-as-you-fetch). The range's reads go
 * first, the trend's layers as soon as the breakdown says which they are, the other cards' next,
 * the device list and the projects after the range's. The overview's own calls take these answers
 * (api.ts `prefetch`); another page, or no stored session, asks as before.
 */
import { prefetch } from '../api.js';
import { storedAccessToken } from '../auth.js';
import { currentPrefs } from '../prefs.js';
import { viewTime } from '../router.js';
import {
  DEVICES_READ,
  firstReads,
  heatmapRead,
  layerReads,
  monthlyRead,
  overviewView,
  PROJECTS_READ,
  STATUS_READ,
  type Breakdown,
  type Read,
} from './overview-data.js';

export function prefetchOverview(): void {
  if (location.pathname !== '/') return;
  const token = storedAccessToken();
  if (token === undefined) return;
  const query = new URLSearchParams(location.search);
  const prefs = currentPrefs();
  const view = overviewView(query, prefs, viewTime());
  const ask = ([op, params]: Read) => prefetch(op, params, token);
  // The range's reads first, so the server answers the first chart's before the rest; none for
  // "all time", which starts at the first usage that the heatmap and the months tell.
  const first: Array<Promise<unknown>> = [];
  if (view.preset !== 'all') {
    const reads = firstReads(view.resolved, view.zone, view.device);
    for (const read of [reads.daily, reads.previousDaily, reads.hourly]) if (read) first.push(ask(read));
    // The trend's layers by source or model follow from the breakdown: asked for as soon as it is
    // in, beside the first round, not after the first chart has drawn.
    const by = query.get('by') === 'model' ? 'model' : 'source';
    first.push(
      ask(reads.breakdown).then(async (res) => {
        if (!res?.ok) return;
        const breakdown = (await res.clone().json()) as Breakdown;
        for (const read of layerReads(breakdown, view.resolved, view.zone, by, view.device).reads.flat())
          void ask(read);
      }),
    );
  }
  const heat = ask(heatmapRead(view.zone, prefs.weekStart, view.today, view.device));
  const months = ask(monthlyRead(view.zone, view.today, view.device));
  for (const read of [['svc-budgets', {}], ['svc-budget-alerts', {}], STATUS_READ] satisfies Read[]) void ask(read);
  // The device list and the projects (whose cost reads the raw buckets) after the first round, as
  // the overview asks for them.
  void Promise.allSettled(first.length > 0 ? first : [heat, months]).then(() => {
    void ask(DEVICES_READ);
    void ask(PROJECTS_READ);
  });
}

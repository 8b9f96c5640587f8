/** @fileoverview One device's last 30 days on the Devices page: tokens and cost (the analytics reads' `device_id` filter). */
import { call, type Answer } from '../api.js';
import { addDays, todayIn } from '../lib/dates.js';
import { exactCount, exactUsd, humanCount, humanUsd } from '../lib/format.js';
import { useViewTime } from '../router.js';
import { useLoad } from '../use-api.js';

export function DeviceUsage({ deviceId, zone, version }: { deviceId: string; zone: string; version: number }) {
  const to = todayIn(zone, useViewTime());
  const from = addDays(to, -29);
  const usage = useLoad(`device-usage|${deviceId}|${zone}|${to}|${version}`, (signal) =>
    call<Answer<'svc-usage-summary'>>('svc-usage-summary', {
      params: { from, to, tz: zone, device_id: deviceId },
      signal,
    }),
  );
  const totals = usage.data?.totals;
  return (
    <div>
      <dt>Last 30 days</dt>
      <dd data-testid="device-usage">
        {totals?.total_tokens === '0' ? (
          'no usage'
        ) : totals ? (
          <a
            href={`/?range=30d&device=${encodeURIComponent(deviceId)}`}
            title={`${exactCount(totals.total_tokens)} tokens, ${exactUsd(totals.total_cost_usd)}`}
          >
            <span className="block">{humanCount(totals.total_tokens)} tokens</span>
            <span className="sr-only">, </span>
            <span className="block">{humanUsd(totals.total_cost_usd)}</span>
          </a>
        ) : usage.error ? (
          '—'
        ) : (
          '…'
        )}
      </dd>
    </div>
  );
}

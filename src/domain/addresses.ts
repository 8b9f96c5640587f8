/**
 * @fileoverview Which IP addresses a webhook may not be delivered to (docs/webhooks.md, "Where
 * deliveries may go"): loopback, private, link-local, carrier-grade NAT, unspecified, multicast
 * and reserved ranges, cloud metadata addresses, and IPv6 forms of these (mapped IPv4, unique
 * local, link-local). Pure.
 */
import { BlockList, isIP } from 'node:net';

const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['fd00:ec2::254', 128],
] as const)
  refused.addSubnet(net, bits, 'ipv6');

/** True when `address` (an IP literal) is one a webhook may not reach. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return refused.check(address, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return refused.check(mapped[1], 'ipv4');
  return refused.check(address, 'ipv6');
}

/** @fileoverview A real HTTP server on 127.0.0.1, port 0, that records webhook deliveries and answers what the test says. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status the next requests get (200 by default). */
  status: number;
  /** Milliseconds each answer waits. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], status: 200, delayMs: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      receiver.received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => res.writeHead(receiver.status).end('ok'), receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

/**
 * exportUsage under hostile clients, over a real listening server: clients that send the request
 * and never read the answer. Each holds an export slot (two an account, EXPORT_MAX_CONCURRENT a
 * process; more is 429 with Retry-After) until the server closes it after EXPORT_STALL_TIMEOUT_MS
 * without a read, and the server keeps at most a few chunks of it in its socket's write buffer
 * (the answer is produced only as it is read). The exports are big enough (about 8 MB of JSON) that
 * the kernel's socket buffers cannot take them whole, so the server's own buffer is what is checked.
 */
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPriceService } from '../../src/pricing/index.js';
import { exportChunks, parseExportRange } from '../../src/services/export.js';
import { ExportSlots } from '../../src/services/export-slots.js';
import { EXPORT_STREAM_BYTES, ExportStream } from '../../src/services/export-stream.js';
import { PriceBook } from '../../src/services/price-book.js';
import { bearer, ingest, issueDevice, signUp, type TestUser } from '../helpers/actors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Buckets of a seeded account: 16 uploads of 500, each about 1 KB of JSON (long model and project names). */
const UPLOADS = 16;
const PER_UPLOAD = 500;
const MODELS = 50;

async function seedBig(t: TestApp, user: TestUser): Promise<void> {
  const device = await issueDevice(t, user, 'laptop');
  const model = (i: number) => `model-${i}-`.padEnd(120, 'm');
  const project = 'acme/'.padEnd(190, 'p');
  for (let u = 0; u < UPLOADS; u++) {
    const hourly = Array.from({ length: PER_UPLOAD }, (_, i) => ({
      hour_start: new Date(Date.UTC(2026, 5, 1) + (u * (PER_UPLOAD / MODELS) + Math.floor(i / MODELS)) * 1_800_000)
        .toISOString()
        .replace('.000Z', 'Z'),
      source: 'codex',
      model: model(i % MODELS),
      input_tokens: 1000 + i,
      total_tokens: 2000 + i,
      project_key: project,
      project_ref: `https://github.com/${project}`.padEnd(480, 'r'),
    }));
    const res = await ingest(t, device.token, hourly);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** Polls `ready` until it holds (the test's own time-out bounds the wait). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

interface Listening {
  port: number;
  /** The server's end of every connection, by the client's port. */
  serverSide: Map<number, net.Socket>;
}

async function listen(t: TestApp): Promise<Listening> {
  const serverSide = new Map<number, net.Socket>();
  t.app.server.on('connection', (socket: net.Socket) => serverSide.set(socket.remotePort ?? 0, socket));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (t.app.server.address() as AddressInfo).port, serverSide };
}

describe('exportUsage: slots, stalled clients, bounded buffers', () => {
  let t: TestApp | undefined;
  const clients: net.Socket[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await t?.close();
    t = undefined;
  });

  /** Sends the export request on a raw socket and never reads the answer; answers the server's end. */
  async function stalledExport(l: Listening, token: string): Promise<net.Socket> {
    const client = net.connect(l.port, '127.0.0.1');
    clients.push(client);
    client.pause();
    await new Promise<void>((resolve) => client.once('connect', resolve));
    client.write(`GET /functions/svc-export HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n\r\n`);
    await until(() => l.serverSide.has(client.localPort ?? -1));
    return l.serverSide.get(client.localPort ?? -1) as net.Socket;
  }

  const fetchExport = (l: Listening, token: string) =>
    fetch(`http://127.0.0.1:${l.port}/functions/svc-export`, { headers: bearer(token) });

  async function expectRefused(l: Listening, token: string, detail: RegExp): Promise<void> {
    const res = await fetchExport(l, token);
    expect(res.status).toBe(429);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe('rate_limited');
    expect(problem.detail).toMatch(detail);
  }

  /** Held: the kernel took what it could and the rest waits in the server; at most a few chunks of it. */
  async function expectHeldAndBounded(server: net.Socket): Promise<void> {
    await until(() => server.writableLength > 0 || server.destroyed);
    expect(server.destroyed).toBe(false);
    expect(server.writableLength).toBeLessThanOrEqual(4 * server.writableHighWaterMark);
  }

  it('two exports an account, EXPORT_MAX_CONCURRENT a process: the next is 429 with Retry-After; a client that leaves frees its slot', async () => {
    t = await createTestApp({ env: { EXPORT_MAX_CONCURRENT: '3', EXPORT_STALL_TIMEOUT_MS: '600000' } });
    const [ada, bob, cy] = [await signUp(t), await signUp(t), await signUp(t)];
    await seedBig(t, ada);
    await seedBig(t, bob);
    const l = await listen(t);

    const ada1 = await stalledExport(l, ada.accessToken);
    const ada2 = await stalledExport(l, ada.accessToken);
    await expectHeldAndBounded(ada1);
    await expectHeldAndBounded(ada2);
    await expectRefused(l, ada.accessToken, /account/); // a third of the same account

    const bob1 = await stalledExport(l, bob.accessToken);
    await expectHeldAndBounded(bob1);
    await expectRefused(l, cy.accessToken, /server/); // the process's fourth

    // Still bounded a while later: nothing more was produced while nothing was read.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const s of [ada1, ada2, bob1]) expect(s.writableLength).toBeLessThanOrEqual(4 * s.writableHighWaterMark);

    // Ada's first client goes away: its slot is free again.
    (clients[0] as net.Socket).destroy();
    await until(() => ada1.destroyed);
    const res = await fetchExport(l, cy.accessToken);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { buckets: unknown[] }).buckets).toEqual([]);
  }, 120_000);

  it('an export whose client reads nothing for EXPORT_STALL_TIMEOUT_MS is closed, logged and its slot freed', async () => {
    // Long enough that the export read in full below is never taken for stalled while other test
    // files starve its client of CPU (1 s was, on two busy cores).
    t = await createTestApp({ env: { EXPORT_STALL_TIMEOUT_MS: '4000' } });
    const ada = await signUp(t);
    await seedBig(t, ada);
    const l = await listen(t);

    const stalled = [await stalledExport(l, ada.accessToken), await stalledExport(l, ada.accessToken)];
    await until(() => stalled.every((s) => s.destroyed));

    const res = await fetchExport(l, ada.accessToken);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { buckets: unknown[] };
    expect(body.buckets).toHaveLength(UPLOADS * PER_UPLOAD);

    const lines = t.logs.filter((line) => line.includes('export closed'));
    expect(lines).toHaveLength(2);
    for (const line of t.logs) expect(line).not.toContain(ada.accessToken);
  }, 120_000);
});

describe('export slots and stream', () => {
  it('slots: per account, then per process; a release frees one slot however often it is called', () => {
    const slots = new ExportSlots(2, 3);
    const a1 = slots.take('a');
    const a2 = slots.take('a');
    expect(slots.take('a')).toBe('user');
    const b1 = slots.take('b');
    expect(slots.take('c')).toBe('process');
    expect(slots.take('a')).toBe('user');
    if (typeof a1 === 'string' || typeof a2 === 'string' || typeof b1 === 'string') throw new Error('no slot');
    a1.release();
    a1.release();
    expect(slots.running).toBe(2);
    expect(slots.take('b')).not.toBe('user');
    expect(slots.take('c')).toBe('process');
    a2.release();
    b1.release();
    expect(slots.running).toBe(1);
  });

  /** Chunks of a full buffer each, counted, until stopped. */
  async function* endless(log: string[]): AsyncGenerator<string> {
    try {
      for (let i = 0; ; i++) {
        log.push(`chunk ${i}`);
        yield 'x'.repeat(EXPORT_STREAM_BYTES);
      }
    } finally {
      log.push('stopped');
    }
  }

  it('a stream nobody reads on is given up after stallMs: told once, its chunks stop, closed once', async () => {
    const log: string[] = [];
    const stream = new ExportStream(endless(log), {
      stallMs: 100,
      onStall: () => log.push('stall'),
      onClose: () => log.push('close'),
    });
    expect(stream.read(0)).toBe(null); // the reader asks once, then never again
    await new Promise((resolve) => stream.once('close', resolve));
    expect(log).toEqual(['chunk 0', 'stall', 'close', 'stopped']);
    expect(stream.readableLength).toBeLessThanOrEqual(EXPORT_STREAM_BYTES);
  }, 10_000);

  it('read to its end, or failing, a stream is closed once and never told of a stall', async () => {
    async function* two(): AsyncGenerator<string> {
      yield 'a';
      yield 'b';
    }
    const closed: string[] = [];
    const ended = new ExportStream(two(), {
      stallMs: 60_000,
      onStall: () => closed.push('stall'),
      onClose: () => closed.push('end'),
    });
    let text = '';
    for await (const chunk of ended) text += String(chunk);
    expect(text).toBe('ab');
    async function* failing(): AsyncGenerator<string> {
      yield 'a';
      throw new Error('the database went away');
    }
    const failed = new ExportStream(failing(), {
      stallMs: 60_000,
      onStall: () => closed.push('stall'),
      onClose: () => closed.push('failed'),
    });
    await expect(async () => {
      for await (const chunk of failed) void chunk;
    }).rejects.toThrow('the database went away');
    expect(closed).toEqual(['end', 'failed']);
  });

  it('each page is read on an event-loop turn of its own (SQLite reads included)', async () => {
    const t = await createTestApp();
    try {
      const ada = await signUp(t);
      const device = await issueDevice(t, ada, 'laptop');
      const hourly = Array.from({ length: 6 }, (_, i) => ({
        hour_start: new Date(Date.UTC(2026, 9, 1) + i * 1_800_000).toISOString(),
        source: 'codex',
        model: 'gpt-5',
        input_tokens: 1,
        total_tokens: 1,
      }));
      expect((await ingest(t, device.token, hourly)).statusCode).toBe(200);
      let turns = 0;
      let ticking = true;
      const tick = () => {
        turns += 1;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const chunks = exportChunks(t.db, {
        userId: ada.id,
        range: parseExportRange(undefined, undefined),
        format: 'csv',
        generatedAt: 0,
        pageSize: 1,
        prices: new PriceBook(t.db, createPriceService()),
      });
      let text = '';
      for await (const chunk of chunks) text += chunk;
      ticking = false;
      expect(text.split('\r\n').filter((line) => line.startsWith('bucket,'))).toHaveLength(6);
      expect(turns).toBeGreaterThanOrEqual(6); // one page a bucket: the loop turned between them
    } finally {
      await t.close();
    }
  });
});

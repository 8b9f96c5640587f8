/**
 * @fileoverview The ceiling for bench:ingest: a bare node:http server that reads the body, parses
 * the JSON and answers, with no framework, validation or storage.
 */
import http from 'node:http';

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let count = 0;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { hourly?: unknown[] };
      count = body.hourly?.length ?? 0;
    } catch {
      response.writeHead(400).end();
      return;
    }
    const payload = JSON.stringify({ success: true, inserted: count, skipped: 0 });
    response
      .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) })
      .end(payload);
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

/* global process, console, URL */
/**
 * Writes test/durations.json (each test file's seconds, longest first) from a vitest JSON report
 * (`vitest run --reporter=json --outputFile.json=report.json`): the order test/sequencer.ts starts
 * files in when vitest has no cache of its own (a fresh clone, as in CI).
 */
import fs from 'node:fs';
import path from 'node:path';

const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: node scripts/test-durations.mjs <vitest JSON report>');
  process.exit(2);
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
const seconds = testResults
  .map((file) => [path.relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
  .sort((a, b) => b[1] - a[1]);
fs.writeFileSync(path.join(root, 'test/durations.json'), `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
console.log(`test/durations.json: ${seconds.length} files`);

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startSchedule } from '../../src/jobs/schedule.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write: (c: Buffer, _e, done) => {
        lines.push(JSON.parse(c.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { logger, lines };
}

describe('scheduler', () => {
  it('runs each job on its interval, never overlapping itself, one log line per run, and stops', async () => {
    const { logger, lines } = capture();
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const schedule = startSchedule(
      [
        {
          name: 'test.job',
          firstRunAfterMs: 0,
          everyMs: 10,
          run: async () => {
            runs += 1;
            concurrent += 1;
            maxConcurrent = Math.max(maxConcurrent, concurrent);
            await new Promise((resolve) => setTimeout(resolve, 15));
            concurrent -= 1;
            return { summary: `run ${runs}`, details: { n: runs } };
          },
        },
        { name: 'test.failing', firstRunAfterMs: 0, everyMs: 1000, run: async () => Promise.reject(new Error('boom')) },
      ],
      logger,
    );
    await new Promise((resolve) => setTimeout(resolve, 120));
    await schedule.stop();
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(after);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(maxConcurrent).toBe(1);
    const jobLines = lines.filter((l) => l.job === 'test.job');
    expect(jobLines).toHaveLength(runs);
    expect(jobLines[0]).toMatchObject({ msg: 'job test.job: run 1', n: 1 });
    expect(lines.find((l) => l.job === 'test.failing')).toMatchObject({
      level: 50,
      msg: 'job test.failing failed: boom',
    });
  });
});

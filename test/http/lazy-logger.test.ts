/** A request's logger is made on first use and then behaves as pino's child: bindings on every line, secrets redacted. */
import { describe, expect, it } from 'vitest';
import { LazyChildLogger } from '../../src/http/lazy-logger.js';
import { capturingLogger } from '../helpers/app.js';

describe('LazyChildLogger', () => {
  it('logs with its bindings through the redacting logger, and makes no child until something is logged', () => {
    const lines: string[] = [];
    const parent = capturingLogger(lines);
    let made = 0;
    const counting = Object.assign(Object.create(parent) as typeof parent, {
      child: (...args: Parameters<typeof parent.child>) => {
        made += 1;
        return parent.child(...args);
      },
    });
    const log = new LazyChildLogger(counting, { reqId: 'req-7' }, {});
    expect(log.level).toBe(parent.level);
    expect(made).toBe(0);

    log.error({ err: new Error('boom'), password: 'hunter2', token: 'tt_dev_secret' }, 'unhandled error');
    log.info('second line');
    expect(made).toBe(1);
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({
      level: 50,
      reqId: 'req-7',
      msg: 'unhandled error',
      password: '[redacted]',
      token: '[redacted]',
      err: { message: 'boom' },
    });
    expect(second).toMatchObject({ level: 30, reqId: 'req-7', msg: 'second line' });
    expect(lines.join('')).not.toContain('hunter2');

    const nested = log.child({ job: 'x' });
    nested.warn('nested');
    expect(JSON.parse(lines[2] as string)).toMatchObject({ reqId: 'req-7', job: 'x', msg: 'nested' });
  });
});

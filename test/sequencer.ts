/**
 * The order test files start in: the longest first, so that no long file starts last and runs alone
 * while the other workers sit idle (the pass then ends with it). Durations come from vitest's own
 * cache of earlier runs on this machine when it has them, else from test/durations.json, committed
 * from a full run (a fresh clone, as in CI, has no cache; vitest alone would start the largest files
 * first, and the slowest are not the largest). Files in neither start first, as vitest does with them.
 * Refresh the list with `node scripts/test-durations.mjs <vitest JSON report>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const committed = JSON.parse(fs.readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      return cached ? cached.duration / 1000 : (committed[file] ?? Number.POSITIVE_INFINITY);
    };
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}

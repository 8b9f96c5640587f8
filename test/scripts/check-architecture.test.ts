import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve('scripts/check-architecture.mjs');

function check(root?: string, ...args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...(root ? ['--root', root] : []), ...args], {
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

/** A tree of two folders, `low` (imports nothing) and `high` (may import `low/`, types of `mid/`). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-architecture-'));
  const all: Record<string, string> = {
    'src/README.md': '# src\n\n## `main.ts` — the entry\n\n**May import:**\n- `high/`: everything it runs\n',
    'src/main.ts': "import { high } from './high/high.js';\nexport const main = high;\n",
    'src/low/README.md': '# src/low — the bottom\n\n- `low.ts`: a value\n\n**May import:**\n- nothing in `src/`\n',
    'src/low/low.ts': 'export const low = 1;\n',
    'src/mid/README.md': '# src/mid — the middle\n\n- `mid.ts`: a type\n\n**May import:**\n- `low/`\n',
    'src/mid/mid.ts': 'export type Mid = number;\nexport const mid = 2;\n',
    'src/high/README.md':
      '# src/high — the top\n\n- `high.ts`: a value\n\n**May import:**\n- `low/`: values\n- `mid/` (types): its type\n',
    'src/high/high.ts':
      "import { low } from '../low/low.js';\nimport type { Mid } from '../mid/mid.js';\nexport const high: Mid = low;\n",
    'docs/architecture.md':
      '# Map\n\n<!-- layers table: generated from the src READMEs by scripts/check-architecture.mjs -->\n<!-- end of the layers table -->\n',
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe('scripts/check-architecture.mjs', () => {
  it('passes on this repository: every import allowed, every file listed, the table as generated', () => {
    expect(check()).toMatchObject({ status: 0, stderr: '' });
  });

  it('writes the layers table from the READMEs, then passes', () => {
    const root = tree({});
    roots.push(root);
    expect(check(root).status).toBe(1);
    expect(check(root, '--write').status).toBe(0);
    const map = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    expect(map).toContain('| [`src/high/`](../src/high/README.md) | the top | `low/`, `mid/` (types) |');
    expect(map).toContain('| [`src/low/`](../src/low/README.md) | the bottom | nothing |');
    expect(check(root)).toMatchObject({ status: 0, stderr: '' });
  });

  it('fails on an import the README does not name, a value where it admits types, an unlisted file and a stale table', () => {
    const root = tree({
      'src/low/low.ts': "import { high } from '../high/high.js';\nexport const low = 1;\nexport const again = high;\n",
      'src/high/high.ts':
        "import { low } from '../low/low.js';\nimport { mid } from '../mid/mid.js';\nexport const high = low + mid;\n",
      'src/mid/extra.ts': 'export const extra = 3;\n',
    });
    roots.push(root);
    check(root, '--write');
    fs.appendFileSync(path.join(root, 'src/low/README.md'), '\nMore words.\n');
    fs.writeFileSync(
      path.join(root, 'src/high/README.md'),
      fs.readFileSync(path.join(root, 'src/high/README.md'), 'utf8').replace('the top', 'the summit'),
    );
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain('src/low/low.ts imports src/high/high.ts');
    expect(stderr).toContain(
      'src/high/high.ts imports a value from src/mid/mid.ts; its README admits types only from `mid/`',
    );
    expect(stderr).toContain('src/mid/extra.ts is not listed');
    expect(stderr).toContain('the layers table differs from the READMEs');
  });
});

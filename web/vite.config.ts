/**
 * Builds the dashboard into dist/web (served by the server at /). After the build it prints the
 * gzipped JavaScript the signed-in overview loads first (the entry chunk and its static imports)
 * and writes it to dist/web/build-report.json, which a test checks against the 200 KB budget.
 */
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = resolve(import.meta.dirname, '../dist/web');

function sizeReport(): Plugin {
  return {
    name: 'tokentally-size-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.type === 'chunk' && c.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      const sizes = [...seen].map((name) => {
        const c = bundle[name];
        const code = c?.type === 'chunk' ? c.code : '';
        return { file: name, bytes: Buffer.byteLength(code), gzip: gzipSync(code).length };
      });
      const initialGzip = sizes.reduce((s, x) => s + x.gzip, 0);
      const lazy = chunks
        .filter((c) => !seen.has(c.fileName))
        .map((c) => ({ file: c.fileName, gzip: c.type === 'chunk' ? gzipSync(c.code).length : 0 }));
      const report = { initialJsGzipBytes: initialGzip, budgetBytes: 200 * 1024, initial: sizes, lazy };
      this.emitFile({ type: 'asset', fileName: 'build-report.json', source: JSON.stringify(report, null, 2) });
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      process.stdout.write(
        `\nDashboard first load (signed-in overview): ${kb(initialGzip)} of JavaScript gzipped (budget 200 KB)\n`,
      );
      for (const s of sizes) process.stdout.write(`  ${s.file}: ${kb(s.bytes)} → ${kb(s.gzip)} gzipped\n`);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), sizeReport()],
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: { proxy: { '/functions': 'http://127.0.0.1:8787', '/auth': 'http://127.0.0.1:8787' } },
});

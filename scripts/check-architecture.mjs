/* global process, console */
// The map's check (docs/architecture.md, "Layers"). The READMEs of src/ are the one source of the
// layer rules: each folder's README says, in its "**May import:**" list, what the folder's files
// may import from the rest of src/ (src/README.md says it for the files at the root). This script
//   1. checks every relative import of every source file in src/ against its folder's list
//      (a "(types)" entry admits type-only imports alone),
//   2. checks every file of a folder is named in its README (or in a subfolder's own README),
//   3. regenerates the layers table of docs/architecture.md from the READMEs and fails when the
//      committed table differs (`--write` writes it instead).
// `npm run lint` runs it; it reads files only (`--write` aside).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--root <dir>` checks another tree laid out the same way (the script's own test does).
const rootArg = process.argv.indexOf('--root');
const root =
  rootArg > 0
    ? path.resolve(process.argv[rootArg + 1] ?? '.')
    : path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SRC = path.join(root, 'src');
const MAP = path.join(root, 'docs', 'architecture.md');
const TABLE_START = '<!-- layers table: generated from the src READMEs by scripts/check-architecture.mjs -->';
const TABLE_END = '<!-- end of the layers table -->';
/** The table's rows, from the entry down to the layers nothing else in src/ is below. */
const ORDER = [
  'server.ts',
  'app.ts',
  'config.ts',
  'process',
  'admin',
  'http',
  'routes',
  'schemas',
  'mcp',
  'jobs',
  'services',
  'ingest',
  'db',
  'security',
  'pricing',
  'mail',
  'badges',
  'otlp',
  'domain',
  'cli',
  'clock.ts',
];

const problems = [];
const rel = (file) => path.relative(SRC, file).split(path.sep).join('/');

/** All files under `dir`, recursively, as paths relative to src/. */
function filesUnder(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [rel(path.join(dir, e.name))]));
}

/** `a`, `b` in a piece of Markdown. */
const codeSpans = (text) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/**
 * A "**May import:**" list: one bullet per entry, `target`[, `target`…] [(types)], then a colon and
 * why. "nothing in `src/`" admits nothing; "everything in `src/`" admits everything.
 */
function parseRules(lines, start, where) {
  const rules = [];
  let i = start + 1;
  for (; i < lines.length && /^\s*$/.test(lines[i]); i++);
  for (; i < lines.length && /^- /.test(lines[i]); i++) {
    const head = lines[i].slice(2).split(/:(?!\/)|—/)[0];
    if (/^nothing\b/.test(head)) continue;
    if (/^everything\b/.test(head)) {
      rules.push({ target: '*', types: false, head: 'everything' });
      continue;
    }
    const targets = codeSpans(head);
    if (targets.length === 0) problems.push(`${where}: a "May import" bullet names no target: ${lines[i]}`);
    const types = /\(types\)/.test(head);
    for (const target of targets) rules.push({ target, types, head: head.trim() });
  }
  return { rules, end: i };
}

/** The units of the map: a folder with its README, or a group of root files in src/README.md. */
function readUnits() {
  const units = [];
  const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const { name } of folders) {
    const file = path.join(SRC, name, 'README.md');
    if (!fs.existsSync(file)) {
      problems.push(`src/${name}/ has no README.md`);
      continue;
    }
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const title = /^# src\/[\w-]+ — (.+)$/.exec(lines[0] ?? '');
    if (!title) problems.push(`src/${name}/README.md: the first line must be "# src/${name} — <its job>"`);
    const at = lines.findIndex((l) => l.startsWith('**May import:**'));
    if (at < 0) {
      problems.push(`src/${name}/README.md has no "**May import:**" list`);
      continue;
    }
    const { rules } = parseRules(lines, at, `src/${name}/README.md`);
    units.push({ key: name, job: title?.[1] ?? '', rules, readme: text, owns: (f) => f.startsWith(`${name}/`) });
  }
  // src/README.md: one "## `a.ts`, `b.ts` — job" section per group of root files.
  const lines = fs.readFileSync(path.join(SRC, 'README.md'), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^## (.+?) — (.+)$/.exec(lines[i]);
    if (!h) continue;
    const files = codeSpans(h[1]);
    const at = lines.findIndex((l, j) => j > i && l.startsWith('**May import:**'));
    const { rules } = parseRules(lines, at, 'src/README.md');
    units.push({ key: files[0], files, job: h[2], rules, owns: (f) => files.includes(f) });
  }
  return units;
}

const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/** Whether `target` (a path under src/) matches a rule's target: a folder `x/`, a file, a glob. */
function matches(ruleTarget, target) {
  if (ruleTarget === '*') return true;
  if (ruleTarget.endsWith('/')) return target.startsWith(ruleTarget);
  return glob(ruleTarget).test(target);
}

/** The relative imports of a source file, each with whether it names types only. */
function importsOf(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (spec, typeOnly) => {
    if (spec.startsWith('.')) found.push({ spec, typeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes =
        !!clause &&
        !clause.name &&
        !!bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier.text, !!clause && (clause.isTypeOnly || allNamedTypes));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) add(arg.literal.text, true);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function checkImports(units) {
  const sources = filesUnder(SRC).filter((f) => /\.tsx?$/.test(f));
  for (const f of sources) {
    const unit = units.find((u) => u.owns(f));
    if (!unit) {
      problems.push(`src/${f}: no README rule covers it (add it to src/README.md)`);
      continue;
    }
    for (const { spec, typeOnly } of importsOf(path.join(SRC, f))) {
      const target = rel(path.resolve(SRC, path.dirname(f), spec)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue; // package.json and the like, outside src/
      if (unit.owns(target)) continue;
      const rule = unit.rules.find((r) => matches(r.target, target) && (typeOnly || !r.types));
      if (rule) continue;
      const typesRule = unit.rules.find((r) => matches(r.target, target));
      problems.push(
        typesRule
          ? `src/${f} imports a value from src/${target}; its README admits types only from \`${typesRule.target}\``
          : `src/${f} imports src/${target}, which its README's "May import" list does not name`,
      );
    }
  }
}

/**
 * Every file of a folder named in its README, or in the README of a subfolder on its way (by its
 * path from there or its name).
 */
function checkListings(units) {
  const namedIn = new Map();
  const named = (dir) => {
    if (!namedIn.has(dir)) {
      const file = path.join(SRC, dir, 'README.md');
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      namedIn.set(dir, new Set(codeSpans(text).flatMap((s) => s.split(/,\s*/))));
    }
    return namedIn.get(dir);
  };
  for (const unit of units.filter((u) => u.readme)) {
    for (const f of filesUnder(path.join(SRC, unit.key))) {
      if (path.basename(f) === 'README.md') continue;
      let listed = false;
      for (let dir = path.posix.dirname(f); !listed; dir = path.posix.dirname(dir)) {
        const inDir = f.slice(dir.length + 1);
        listed = named(dir).has(inDir) || named(dir).has(path.basename(f));
        if (dir === unit.key) break;
      }
      if (!listed) problems.push(`src/${f} is not listed in its folder's README`);
    }
  }
  const rootText = fs.readFileSync(path.join(SRC, 'README.md'), 'utf8');
  const rootNamed = new Set(codeSpans(rootText));
  for (const e of fs.readdirSync(SRC, { withFileTypes: true })) {
    if (e.isFile() && e.name !== 'README.md' && !rootNamed.has(e.name)) {
      problems.push(`src/${e.name} is not listed in src/README.md`);
    }
  }
}

/** The layers table, one row per unit in ORDER. */
function table(units) {
  const rank = (u) => (ORDER.includes(u.key) ? ORDER.indexOf(u.key) : ORDER.length);
  const sorted = [...units].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
  const cell = (u) => {
    if (u.rules.some((r) => r.target === '*')) return 'everything';
    if (u.rules.length === 0) return 'nothing';
    return u.rules.map((r) => `\`${r.target}\`${r.types ? ' (types)' : ''}`).join(', ');
  };
  const name = (u) =>
    u.readme
      ? `[\`src/${u.key}/\`](../src/${u.key}/README.md)`
      : `[${u.files.map((f) => `\`src/${f}\``).join(', ')}](../src/README.md)`;
  const rows = sorted.map((u) => `| ${name(u)} | ${u.job} | ${cell(u)} |`);
  return ['| Folder | Job | May import (from src/) |', '|---|---|---|', ...rows].join('\n');
}

function checkTable(units, write) {
  const text = fs.readFileSync(MAP, 'utf8');
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    problems.push(`docs/architecture.md has no "${TABLE_START}" … "${TABLE_END}" block`);
    return;
  }
  const fresh = `${text.slice(0, start + TABLE_START.length)}\n${table(units)}\n${text.slice(end)}`;
  if (fresh === text) return;
  if (write) fs.writeFileSync(MAP, fresh);
  else
    problems.push(
      'docs/architecture.md: the layers table differs from the READMEs (node scripts/check-architecture.mjs --write)',
    );
}

const units = readUnits();
checkImports(units);
checkListings(units);
checkTable(units, process.argv.includes('--write'));
for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(`check-architecture: ${problems.length} problem(s)`);
  process.exit(1);
}

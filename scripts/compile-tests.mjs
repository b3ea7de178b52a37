// The suite's code compiled once for `npm test` (scripts/test.mjs): every test process run under
// tsx pays ~1.85 s of CPU for tsx's loader (its thread, and a resolve and load hook for each of the
// few hundred modules a test file imports), and every compute worker a test starts pays it again;
// `npm test` starts ~90 test processes. So the run transpiles src/, test/, scripts/ and bench/
// once (TypeScript's transpileModule, file by file as tsx does: `npm run typecheck` checks the
// types) into a temporary directory with the repository's layout, and the test processes run
// that JavaScript without a loader. The other top-level entries (assets/, web/, node_modules/,
// package.json, …) are links to the checkout, so the code finds the files it reads relative to
// itself; `dist` links to the compiled src/, so the tree's bin/gridcast.js runs the same compiled
// code (test/helpers.ts gridcastCli). Tests read the checkout's own files through ROOT (the
// checkout, test/helpers.ts), never through the compiled tree.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = ['src', 'test', 'scripts', 'bench'];
/** Copied rather than linked: Node runs a linked script from its real path, next to the checkout's dist/. */
const COPIED = ['bin'];
const SKIPPED = new Set(['.git', 'dist', ...COMPILED, ...COPIED]);

const COMPILER_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  rewriteRelativeImportExtensions: true,
  esModuleInterop: true,
  sourceMap: false,
};

function hasTypeScript(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .some((e) => (e.isDirectory() ? hasTypeScript(path.join(dir, e.name)) : e.name.endsWith('.ts')));
}

/**
 * `from` into `to`: .ts files transpiled to .js next to a copy of themselves (some code reads a
 * source as data, e.g. the SDK test its generated types), other files copied, folders without
 * TypeScript linked.
 */
function compileTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      if (hasTypeScript(source)) compileTree(source, path.join(to, entry.name));
      else fs.symlinkSync(source, path.join(to, entry.name));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const { outputText } = ts.transpileModule(fs.readFileSync(source, 'utf8'), { compilerOptions: COMPILER_OPTIONS, fileName: source });
      fs.writeFileSync(path.join(to, entry.name.replace(/\.ts$/, '.js')), outputText);
    }
    if (!entry.isDirectory()) fs.copyFileSync(source, path.join(to, entry.name));
  }
}

/** Compiles the tree into a new temporary directory and returns it (the caller removes it). */
export function compileTests() {
  const into = fs.mkdtempSync(path.join(os.tmpdir(), 'gridcast-compiled-tests-'));
  for (const dir of COMPILED) compileTree(path.join(ROOT, dir), path.join(into, dir));
  for (const dir of COPIED) fs.cpSync(path.join(ROOT, dir), path.join(into, dir), { recursive: true });
  for (const name of fs.readdirSync(ROOT)) if (!SKIPPED.has(name)) fs.symlinkSync(path.join(ROOT, name), path.join(into, name));
  fs.symlinkSync('src', path.join(into, 'dist'));
  return into;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(compileTests());

// The published declarations as a user's TypeScript sees them: the build's .d.ts files (made with
// tsconfig.build.json, as npm pack makes them) in a package folder with the package's own
// `exports`, and a consumer project (strict, module and moduleResolution nodenext, skipLibCheck off)
// that imports the three entries and makes the README's typed calls. It must type-check against
// every @types/node line the package supports, the newest included, and with no @types/node at all
// (nothing Node-internal may appear in a public signature). The declarations must also carry no
// @internal member and no rule ID or issue number in their doc comments.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');

/** @types/node lines the consumer is checked against: the devDependency and its aliases (package.json). */
const TYPES_NODE: readonly { readonly label: string; readonly folder: string }[] = [
  { label: '20', folder: 'node' },
  { label: '22', folder: 'node-22' },
  { label: '24', folder: 'node-24' },
  { label: '25', folder: 'node-25' },
  { label: '26 (the newest when this was written)', folder: 'node-26' },
];

let work: string;
let pkg: string;

function declarationFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...declarationFiles(p));
    else if (e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** Type-checks test/types/consumer/consumer.ts in a fresh project; `typesNode` is an @types folder name, or null for none. */
function checkConsumer(name: string, typesNode: string | null): string {
  const project = path.join(work, name);
  mkdirSync(path.join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(pkg, path.join(project, 'node_modules', 'khronos-loader'), 'dir');
  if (typesNode !== null) {
    const folder = path.join(repoRoot, 'node_modules', '@types', typesNode);
    if (!existsSync(path.join(folder, 'package.json'))) throw new Error(`${folder} is missing: run npm ci`);
    symlinkSync(folder, path.join(project, 'node_modules', '@types', 'node'), 'dir');
  }
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        // No DOM: without @types/node, nothing ambient may stand in for what the package needs.
        lib: ['ES2023'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: typesNode === null ? [] : ['node'],
        typeRoots: [path.join(project, 'node_modules', '@types')],
      },
      files: ['consumer.ts'],
    }),
  );
  copyFileSync(path.join(repoRoot, 'test/types/consumer/consumer.ts'), path.join(project, 'consumer.ts'));
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
  return `${result.stdout}${result.stderr}${result.status === 0 ? '' : `(exit ${String(result.status)})`}`;
}

describe('TYPES: the published declarations', () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'kl-types-'));
    pkg = path.join(work, 'khronos-loader');
    // The declarations exactly as the build emits them (tsconfig.build.json, stripInternal included).
    const emit = spawnSync(
      process.execPath,
      [tsc, '-p', path.join(repoRoot, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', path.join(pkg, 'dist'), '--pretty', 'false'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    if (emit.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${emit.stdout}${emit.stderr}`);
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
    const { name, version, type, main, types, exports } = manifest;
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name, version, type, main, types, exports }, null, 2));
  }, 240_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  for (const { label, folder } of TYPES_NODE) {
    it(`TYPES: a strict nodenext consumer with skipLibCheck off type-checks against @types/node ${label}`, () => {
      expect(checkConsumer(`with-${folder}`, folder)).toBe('');
    }, 120_000);
  }

  it('TYPES: a strict nodenext consumer with skipLibCheck off type-checks with no @types/node at all', () => {
    expect(checkConsumer('without-types-node', null)).toBe('');
  }, 120_000);

  it('TYPES: no @internal member, rule ID or issue number is left in a doc comment', () => {
    const offending: string[] = [];
    for (const file of declarationFiles(path.join(pkg, 'dist'))) {
      const text = readFileSync(file, 'utf8');
      for (const comment of text.match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? []) {
        for (const m of comment.matchAll(/@internal|\b[A-Z]+(?:-[A-Z]+)*-\d+\b|\bissue \d+/g)) {
          // UTF-8 and SHA-256 are names of standards, not rule IDs.
          if (m[0] === 'UTF-8' || m[0] === 'UTF-16' || m[0] === 'SHA-256') continue;
          offending.push(`${path.relative(pkg, file)}: ${m[0]} in ${comment.slice(0, 80)}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});

// ARCH: the shape DESIGN.md asks for, checked on the source. Modules import down the flow, never
// back up it; what OpenXR and Vulkan share lives once, in lib/core, never as a second copy.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const LIB = path.join(repoRoot, 'lib');

function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFilesUnder(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/**
 * The relative modules a file imports at run time: static `import` and `export ... from`
 * declarations. Type-only ones (`import type`, `export type`, or every binding marked `type`) are
 * left out: TypeScript erases them, so they cannot make modules evaluate in a circle; the public
 * types of parent and child handles name each other (session.instance, instance.createSession())
 * by design.
 */
function runtimeImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of source.statements) {
    let spec: ts.Expression | undefined;
    let typeOnly = false;
    if (ts.isImportDeclaration(st)) {
      spec = st.moduleSpecifier;
      const clause = st.importClause;
      if (clause) {
        const named = clause.namedBindings;
        const allNamedTypes = named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
        typeOnly = clause.isTypeOnly || (clause.name === undefined && allNamedTypes);
      }
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      spec = st.moduleSpecifier;
      const named = st.exportClause;
      typeOnly = st.isTypeOnly || (named !== undefined && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
    }
    if (spec === undefined || !ts.isStringLiteral(spec) || typeOnly || !spec.text.startsWith('.')) continue;
    out.push(path.resolve(path.dirname(file), spec.text.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** Every cycle's shortest closing path, one per strongly connected component, as "a.ts → b.ts → a.ts". */
function importCycles(graph: ReadonlyMap<string, readonly string[]>, name: (f: string) => string = (f) => f): string[] {
  // Tarjan's strongly connected components.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  // For each component: the shortest path from its first member back to itself (breadth first).
  return components.map((comp) => {
    const members = new Set(comp);
    const start = comp[0] as string;
    const prev = new Map<string, string>();
    const queue = [start];
    let closing: string | undefined;
    while (queue.length > 0 && closing === undefined) {
      const v = queue.shift() as string;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w)) continue;
        if (w === start) {
          closing = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const cycle = [start];
    for (let v = closing as string; v !== start; v = prev.get(v) as string) cycle.splice(1, 0, v);
    cycle.push(start);
    return `${cycle.map(name).join(' → ')} (a circle of ${comp.length} modules: ${comp.map(name).join(', ')})`;
  });
}

/** Lines as compared for copies: trimmed, blank and comment-only lines dropped. */
function normalisedLines(text: string): { line: string; at: number }[] {
  const out: { line: string; at: number }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      return;
    }
    if (line === '' || line.startsWith('//')) return;
    if (line.startsWith('/*')) {
      if (!line.includes('*/')) inBlock = true;
      return;
    }
    out.push({ line, at: i + 1 });
  });
  return out;
}

const SHARED_RUN = 6;

/** Runs of SHARED_RUN or more normalised lines that a file of `a` and a file of `b` both contain. */
function sharedRuns(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] {
  const windows = new Map<string, { file: string; at: number }>();
  for (const [file, text] of a) {
    const lines = normalisedLines(text);
    for (let i = 0; i + SHARED_RUN <= lines.length; i++) {
      const run = lines.slice(i, i + SHARED_RUN).map((l) => l.line);
      // Six closing brackets in a row are nobody's copy.
      if (!run.some((l) => /[A-Za-z0-9]/.test(l))) continue;
      const key = run.join('\n');
      if (!windows.has(key)) windows.set(key, { file, at: (lines[i] as { at: number }).at });
    }
  }
  const found: string[] = [];
  for (const [file, text] of b) {
    const lines = normalisedLines(text);
    let lastReported = -SHARED_RUN;
    for (let i = 0; i + SHARED_RUN <= lines.length; i++) {
      const key = lines.slice(i, i + SHARED_RUN).map((l) => l.line).join('\n');
      const twin = windows.get(key);
      // One report per run (a longer run matches at every offset).
      if (twin && i >= lastReported + SHARED_RUN) {
        found.push(`${file}:${(lines[i] as { at: number }).at} repeats ${twin.file}:${twin.at}:\n  ${key.split('\n').join('\n  ')}`);
        lastReported = i;
      }
    }
  }
  return found;
}

const rel = (f: string): string => path.relative(repoRoot, f);

function sources(dir: string): Map<string, string> {
  return new Map(tsFilesUnder(dir).map((f) => [rel(f), readFileSync(f, 'utf8')]));
}

describe('ARCH: the import graph of lib/ and what lib/openxr and lib/vulkan share', () => {
  it('ARCH: no module of lib/ imports itself back through a circle of run-time imports (modules import down the flow)', () => {
    const graph = new Map<string, string[]>();
    for (const f of tsFilesUnder(LIB)) graph.set(f, runtimeImports(f, readFileSync(f, 'utf8')));
    expect(graph.size).toBeGreaterThan(50);
    expect(importCycles(graph, rel)).toEqual([]);
  });

  it('ARCH: the cycle finder names a circle, and type-only imports do not make one', () => {
    const g = new Map<string, string[]>();
    const imports = (file: string, text: string): void => {
      g.set(file, runtimeImports(file, text));
    };
    imports('/x/a.ts', "import { b } from './b.js';\nexport const a = 1;");
    imports('/x/b.ts', "import {\n  c,\n} from './c.js';\nimport type { A } from './a.js';");
    imports('/x/c.ts', "export { a } from './a.js';\nimport { type B } from './b.js';");
    imports('/x/d.ts', "import type { A } from './a.js';");
    expect(importCycles(g)).toEqual(['/x/a.ts → /x/b.ts → /x/c.ts → /x/a.ts (a circle of 3 modules: /x/a.ts, /x/b.ts, /x/c.ts)']);
    imports('/x/c.ts', "export type { a } from './a.js';");
    expect(importCycles(g)).toEqual([]);
  });

  it(`ARCH: no run of ${SHARED_RUN} or more lines (trimmed, blank and comment lines dropped) is shared between lib/openxr and lib/vulkan`, () => {
    const openxr = sources(path.join(LIB, 'openxr'));
    const vulkan = sources(path.join(LIB, 'vulkan'));
    expect(openxr.size).toBeGreaterThan(10);
    expect(vulkan.size).toBeGreaterThan(0);
    expect(sharedRuns(openxr, vulkan)).toEqual([]);
  });

  it('ARCH: the shared-run finder sees a copied block through indentation, blank lines and comments', () => {
    const block = ['const a = 1;', 'const b = 2;', 'const c = 3;', 'const d = 4;', 'const e = 5;', 'const f = 6;'];
    const a = new Map([['a.ts', ['// head', ...block, 'x();'].join('\n')]]);
    const copy = new Map([['b.ts', ['y();', ...block.slice(0, 3).map((l) => `    ${l}`), '', '/* note', ' * more */', ...block.slice(3)].join('\n')]]);
    expect(sharedRuns(a, copy)).toHaveLength(1);
    expect(sharedRuns(a, copy)[0]).toMatch(/^b\.ts:2 repeats a\.ts:2:/);
    const fiveOnly = new Map([['c.ts', block.slice(0, 5).join('\n')]]);
    expect(sharedRuns(a, fiveOnly)).toEqual([]);
  });
});

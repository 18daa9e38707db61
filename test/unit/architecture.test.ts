// ARCH: the shape docs/architecture.md describes, checked on the source. Modules import down the
// flow, never back up it; what OpenXR and Vulkan share lives once, in lib/core, never as a second
// copy; a folder is a role, and both APIs have the same rooms; the product addon carries no bench
// or test natives; the native loader chains include no N-API header; no folder holds more than a
// quarter of its tree.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadNativeAddon } from '../../lib/core/native/load.js';
import { repoRoot } from '../helpers/paths.js';

const LIB = path.join(repoRoot, 'lib');
const NATIVE = path.join(repoRoot, 'native');

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

/** Every relative module a file names: static imports and re-exports (type-only ones too) and import('...'). */
function allImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.[^'"]*)\1/gm)) {
    out.push(path.resolve(path.dirname(file), (m[2] as string).replace(/\.js$/, '.ts')));
  }
  return out;
}

/** Files under `dir` (recursively) whose names `keep` accepts; [] when `dir` does not exist. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(e.name)) out.push(p);
  }
  return out.sort();
}

const isNativeSource = (name: string): boolean => /\.(c|cc|cpp|h|hpp)$/.test(name);
const isTsSource = (name: string): boolean => name.endsWith('.ts') && !name.endsWith('.d.ts');

/** The names of the folders directly in `dir`. */
function rooms(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

const lineCount = (file: string): number => readFileSync(file, 'utf8').split('\n').length;

/**
 * Folders of `root` whose own files (not their subfolders') hold more than a quarter of the tree's
 * hand-written lines; folders named `generated` (and what is under them) are left out of both.
 */
function oversizedFolders(root: string, keep: (name: string) => boolean): string[] {
  const perFolder = new Map<string, number>();
  let total = 0;
  for (const f of filesUnder(root, keep)) {
    if (path.relative(root, f).split(path.sep).includes('generated')) continue;
    const n = lineCount(f);
    total += n;
    perFolder.set(path.dirname(f), (perFolder.get(path.dirname(f)) ?? 0) + n);
  }
  return [...perFolder]
    .filter(([, n]) => n * 4 > total)
    .map(([dir, n]) => `${rel(dir)}/ holds ${n} of ${total} lines (${Math.round((100 * n) / total)} %)`);
}

/**
 * Names that belong to the bench, the doctor's probes or the tests, never to the product addon:
 * they live in a separate tools addon (bench and doctor) or the test addon the tests build. The
 * simulated runtime's readback (openxrDrainSubmittedPixels, openxrDrainHapticEvents) is not among
 * them: it backs drainSubmittedPixels/drainHapticEvents, public helpers of the simulated runtime
 * that the demo, the examples and applications' own tests use (docs/architecture.md).
 */
const TOOL_OR_TEST_NAME = /^bench|Bench|Probe|^emitLog$/;

describe('ARCH: rooms, the product addon and the size of folders', () => {
  it('ARCH: the product addon (build/Release/khronos_loader.node) exports no bench, probe or test-hook name', () => {
    const addon = loadNativeAddon() as unknown as Record<string, unknown>;
    const names = Object.keys(addon);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => TOOL_OR_TEST_NAME.test(n)).sort()).toEqual([]);
  });

  it('ARCH: the name rule catches the bench, probe and test-hook names and lets the product names through', () => {
    for (const n of ['benchEmpty', 'OpenXrBenchScenario', 'openxrBenchCommands', 'openxrProbeRuntime', 'vulkanProbeLayer', 'emitLog']) {
      expect(TOOL_OR_TEST_NAME.test(n), n).toBe(true);
    }
    for (const n of ['OpenXrInstance', 'VulkanInstance', 'setLogHandler', 'openLibraryCount', 'openxrLocateSpace', 'vulkanCompute', 'napiVersion', 'openxrDrainSubmittedPixels']) {
      expect(TOOL_OR_TEST_NAME.test(n), n).toBe(false);
    }
  });

  it('ARCH: no file under lib/openxr or lib/vulkan imports lib/tools (the tools are built on the API, never the other way)', () => {
    const tools = path.join(LIB, 'tools') + path.sep;
    const files = [...tsFilesUnder(path.join(LIB, 'openxr')), ...tsFilesUnder(path.join(LIB, 'vulkan'))];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => allImports(f, readFileSync(f, 'utf8')).filter((i) => i.startsWith(tools)).map((i) => `${rel(f)} imports ${rel(i)}`));
    expect(found).toEqual([]);
  });

  it('ARCH: the import finder sees static, type-only, re-exported and dynamic imports', () => {
    const text = "import a from './a.js';\nimport type { B } from '../b.js';\nexport { c } from './c/c.js';\nconst d = await import('./d.js');\nimport './e.js';";
    expect(allImports('/x/y/f.ts', text)).toEqual(['/x/y/a.ts', '/x/b.ts', '/x/y/c/c.ts', '/x/y/d.ts', '/x/y/e.ts']);
  });

  it('ARCH: no file under a native/**/loader/ folder includes an N-API header (the chain knows nothing of Node)', () => {
    const loaderFiles = filesUnder(NATIVE, isNativeSource).filter((f) => path.relative(NATIVE, path.dirname(f)).split(path.sep).includes('loader'));
    // native/openxr/loader/ and native/vulkan/loader/ hold the two chains.
    expect(loaderFiles.length).toBeGreaterThan(0);
    const found = loaderFiles.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: i + 1 }))
        .filter(({ line }) => /^\s*#\s*include\s*[<"](?:[^>"]*\/)?(?:napi|node_api|js_native_api)\.h[>"]/.test(line))
        .map(({ line, at }) => `${rel(f)}:${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('ARCH: lib/openxr and lib/vulkan have the same rooms (OpenXR has one more: vulkan/, its only bridge to Vulkan) and the same file names for the same roles', () => {
    const openxr = rooms(path.join(LIB, 'openxr')).filter((r) => r !== 'vulkan');
    const vulkan = rooms(path.join(LIB, 'vulkan'));
    expect(openxr).toEqual(vulkan);
    expect(vulkan).toEqual(expect.arrayContaining(['api', 'discovery', 'native', 'plan']));
    const roles = ['index.ts', 'loader.ts', 'errors.ts', 'plan/plan.ts', 'plan/instance-plan.ts', 'native/addon.ts', 'native/plan.ts', 'discovery/discover.ts', 'discovery/context.ts', 'discovery/layer-discovery.ts', 'discovery/layer-policy.ts', 'api/instance.ts'];
    const missing = ['openxr', 'vulkan'].flatMap((api) => roles.filter((r) => !existsSync(path.join(LIB, api, r))).map((r) => `lib/${api}/${r}`));
    expect(missing).toEqual([]);
  });

  it('ARCH: no folder of lib/ holds (in its own files) more than a quarter of lib\'s hand-written lines (lib/generated left out)', () => {
    expect(oversizedFolders(LIB, isTsSource)).toEqual([]);
  });

  it('ARCH: no folder of native/ holds (in its own files) more than a quarter of native\'s hand-written lines (generated/ folders left out)', () => {
    expect(oversizedFolders(NATIVE, isNativeSource)).toEqual([]);
  });
});

// npm run test:runtimes [-- --seconds N]: the package under Bun and Deno (docs/platforms.md, "Bun
// and Deno"), from this checkout's build, with Node beside them as the baseline. Installs the
// pinned Bun and Deno from their npm packages into the cache folder first where they are missing
// (scripts/runtimes/bun-deno.ts), then under each runtime:
//  - `khronos-loader demo --json` (N seconds, default 5) on the simulated runtime: it must render
//    frames; its frames, ns per space.locate (through the demo's layers, timed per call with
//    performance.now()) and event-loop lag go into the table;
//  - `khronos-loader demo --vulkan --json` on lavapipe: every frame the simulated runtime received
//    must be the one drawn;
//  - the typed-API smoke suites test/runtimes/openxr-smoke.mjs and vulkan-smoke.mjs (lavapipe);
//    the OpenXR one's space.locate loop (no API layer, ns per call) goes into the table.
// Prints a line per run and a table; exit 1 when anything failed. CI runs it as its own phase.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRuntimes, runtimeCommand, runtimeEnv, runtimesDir, SMOKE_ENV, type InstalledRuntime } from './runtimes/bun-deno.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist/tools/cli/main.js');

function parseSeconds(args: readonly string[]): number {
  if (args.length === 0) return 5;
  const [flag, value] = args;
  const seconds = Number(value);
  if (args.length !== 2 || flag !== '--seconds' || !Number.isInteger(seconds) || seconds < 1) {
    process.stderr.write(`test-runtimes: expected no arguments or --seconds <whole number of seconds, at least 1>, got: ${args.join(' ')}\n`);
    process.exit(2);
  }
  return seconds;
}

/** The part of `khronos-loader demo --json`'s output the table shows. */
interface DemoJson {
  readonly rendered: number;
  readonly missed: number;
  readonly lagP99Ms: number | null;
  readonly nsPerCall: { readonly locate: number };
  readonly vulkan?: { readonly framesDrawn: number; readonly pixels: { readonly framesAsDrawn: number; readonly framesDrawn: number } | null };
}

interface Row {
  runtime: string;
  demo: string;
  demoLocateNs: string;
  locateNs: string;
  lag: string;
  vulkan: string;
  openxrSmoke: string;
  vulkanSmoke: string;
}

const seconds = parseSeconds(process.argv.slice(2));
const dir = runtimesDir();
let failures = 0;

function fail(what: string, detail: string): string {
  failures++;
  process.stdout.write(`FAIL ${what}: ${detail}\n`);
  return 'FAILED';
}

function runUnder(runtime: InstalledRuntime | 'node', script: string, args: readonly string[], extraEnv: Readonly<Record<string, string>> = {}) {
  const { command, args: argv } = runtimeCommand(runtime, script, args);
  const started = performance.now();
  const result = spawnSync(command, argv, { cwd: root, env: runtimeEnv(dir, extraEnv), encoding: 'utf8', timeout: (seconds + 120) * 1000, maxBuffer: 16 * 1024 * 1024 });
  const why = result.error ? result.error.message : result.status !== 0 ? `exit ${String(result.status ?? result.signal)}` : '';
  return { ...result, why, seconds: (performance.now() - started) / 1000 };
}

function demo(runtime: InstalledRuntime | 'node', label: string, vulkan: boolean): DemoJson | undefined {
  const what = `${label}: demo${vulkan ? ' --vulkan' : ''} --seconds ${seconds}`;
  const run = runUnder(runtime, cli, ['demo', '--seconds', String(seconds), '--json', ...(vulkan ? ['--vulkan'] : [])]);
  if (run.why !== '') return void fail(what, `${run.why}\n${run.stdout}${run.stderr}`);
  let result: DemoJson;
  try {
    result = JSON.parse(run.stdout) as DemoJson;
  } catch {
    return void fail(what, `its --json output does not parse:\n${run.stdout}`);
  }
  if (!(result.rendered > 0)) return void fail(what, `no frame rendered (${run.stdout})`);
  if (vulkan) {
    const pixels = result.vulkan?.pixels;
    if (pixels === null || pixels === undefined) return void fail(what, 'the simulated runtime gave no readback to check');
    if (pixels.framesDrawn === 0 || pixels.framesAsDrawn !== pixels.framesDrawn) return void fail(what, `${pixels.framesAsDrawn} of ${pixels.framesDrawn} frames received as drawn`);
  }
  process.stdout.write(`ok   ${what} (${run.seconds.toFixed(1)} s): ${result.rendered} rendered, ${result.missed} missed\n`);
  return result;
}

/** A smoke suite's run: "passed/total" (or FAILED) and what it measured ("measure: space.locate N ns per call"). */
function smoke(runtime: InstalledRuntime | 'node', label: string, suite: 'openxr' | 'vulkan'): { result: string; locateNs?: string } {
  const what = `${label}: test/runtimes/${suite}-smoke.mjs`;
  const run = runUnder(runtime, path.join(root, 'test/runtimes', `${suite}-smoke.mjs`), [], SMOKE_ENV);
  const summary = /checks passed on .*$/m.exec(run.stdout)?.[0];
  const counted = new RegExp(`^${suite} smoke: (\\d+) of (\\d+) checks passed`, 'm').exec(run.stdout);
  if (run.why !== '' || counted === null || counted[1] !== counted[2]) return { result: fail(what, `${run.why || 'not every check passed'}\n${run.stdout}${run.stderr}`) };
  const locateNs = /^measure: space\.locate (\d+) ns per call/m.exec(run.stdout)?.[1];
  process.stdout.write(`ok   ${what} (${run.seconds.toFixed(1)} s): ${counted[1]} ${summary ?? ''}\n`);
  return { result: `${counted[1]}/${counted[2]}`, ...(locateNs !== undefined && { locateNs }) };
}

let installed: Record<'bun' | 'deno', InstalledRuntime>;
try {
  installed = installRuntimes(dir, (line) => process.stdout.write(`test-runtimes: ${line}\n`));
} catch (error) {
  process.stdout.write(`FAIL installing Bun and Deno: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const runtimes: [string, InstalledRuntime | 'node'][] = [
  [`node ${process.version.slice(1)}`, 'node'],
  [`bun ${installed.bun.version}`, installed.bun],
  [`deno ${installed.deno.version}`, installed.deno],
];
const rows: Row[] = [];
for (const [label, runtime] of runtimes) {
  const headless = demo(runtime, label, false);
  const rendering = demo(runtime, label, true);
  const pixels = rendering?.vulkan?.pixels;
  const openxrSmoke = smoke(runtime, label, 'openxr');
  const vulkanSmoke = smoke(runtime, label, 'vulkan');
  rows.push({
    runtime: label,
    demo: headless ? `${headless.rendered} rendered, ${headless.missed} missed` : 'FAILED',
    demoLocateNs: headless ? headless.nsPerCall.locate.toFixed(0) : '-',
    locateNs: openxrSmoke.locateNs ?? '-',
    lag: headless ? (headless.lagP99Ms === null ? 'not measured' : `p99 ${headless.lagP99Ms.toFixed(3)} ms`) : '-',
    vulkan: rendering && pixels ? `${pixels.framesAsDrawn} of ${pixels.framesDrawn} as drawn` : 'FAILED',
    openxrSmoke: openxrSmoke.result,
    vulkanSmoke: vulkanSmoke.result,
  });
}

const header: Row = {
  runtime: 'runtime',
  demo: `demo (${seconds} s, 90 Hz)`,
  demoLocateNs: 'demo locate ns',
  locateNs: 'locate ns, no layer',
  lag: 'event-loop lag',
  vulkan: 'demo --vulkan',
  openxrSmoke: 'OpenXR smoke',
  vulkanSmoke: 'Vulkan smoke',
};
const keys = Object.keys(header) as (keyof Row)[];
const widths = keys.map((k) => Math.max(header[k].length, ...rows.map((r) => r[k].length)));
const line = (r: Row) => `| ${keys.map((k, i) => r[k].padEnd(widths[i] ?? 0)).join(' | ')} |`;
process.stdout.write(['', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line), ''].join('\n'));
process.stdout.write(`test-runtimes: ${failures === 0 ? 'everything passed' : `${failures} failed`} (Bun and Deno from ${dir})\n`);
process.exit(failures === 0 ? 0 : 1);

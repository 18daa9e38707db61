// CLI: one argument language for every khronos-loader command (docs/usage.md, "The tools"): each
// command's --help is its own help on stdout (exit 0); a wrong option or value is one line on
// stderr naming the argument, what it needs and what it got (exit 2); --version; and none of this
// loads the native addon. In-process, the module that loads the addon is mocked to fail on import,
// so a help or argument path that reached it (statically or through a lazy import) fails here;
// a few cases also run as a real process in which loading any native addon throws.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { BENCH, DOCTOR, INFO, TOP_LEVEL, type CommandGroup } from '../../lib/tools/cli/specs.js';
import type { CommandSpec } from '../../lib/tools/cli/args.js';
import { repoRoot } from '../helpers/paths.js';

vi.mock('../../lib/core/native/load.js', () => {
  throw new Error('lib/core/native/load.ts (the native addon loader) was imported');
});

const VERSION = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function cli(args: readonly string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const isGroup = (c: CommandSpec | CommandGroup): c is CommandGroup => 'commands' in c;
/** Every command of the table, groups' sub-commands included. */
const COMMANDS: readonly CommandSpec[] = TOP_LEVEL.flatMap((c) => (isGroup(c) ? c.commands : [c]));
/** The words that run a command ("bench openxr --command frame" is words and an option). */
const words = (spec: CommandSpec): string[] => spec.name.split(' ');

/** A wrong value per command, and what its error must name. */
const WRONG_VALUES: Readonly<Record<string, readonly { readonly args: readonly string[]; readonly names: string; readonly got: string }[]>> = {
  'info openxr': [{ args: ['--runtime'], names: '--runtime', got: 'nothing' }],
  'info vulkan': [{ args: ['--json=yes'], names: '--json', got: '"yes"' }],
  runtimes: [{ args: ['--timeout', 'soon'], names: '--timeout', got: '"soon"' }],
  'layers vulkan': [{ args: ['--app', 'vkcube'], names: '--app', got: '"vkcube"' }],
  'layers openxr': [{ args: ['--request'], names: '--request', got: 'nothing' }],
  demo: [
    { args: ['--seconds', 'abc'], names: '--seconds', got: '"abc"' },
    { args: ['--seconds', '0'], names: '--seconds', got: '"0"' },
    { args: ['--seconds', '-1'], names: '--seconds', got: '"-1"' },
    { args: ['--seconds', 'Infinity'], names: '--seconds', got: '"Infinity"' },
  ],
  'doctor openxr': [{ args: ['--timeout', '-5'], names: '--timeout', got: '"-5"' }],
  'doctor vulkan': [{ args: ['--timeout='], names: '--timeout', got: '""' }],
  'bench openxr': [
    { args: ['--svg', '/nonexistent/x.svg'], names: '--svg', got: '"/nonexistent/x.svg" (/nonexistent does not exist)' },
    { args: ['--repeats', '0'], names: '--repeats', got: '"0"' },
    { args: ['--layers', 'core_validation'], names: '--layers', got: '"core_validation"' },
    { args: ['--command', 'xrEndFrame'], names: '--command', got: '"xrEndFrame" (xrEndFrame is timed as part of the xrWaitFrame frame)' },
  ],
  'bench openxr --command frame': [
    { args: ['--spaces', '4,x'], names: '--spaces', got: '"4,x"' },
    { args: ['--api', '2.0'], names: '--api', got: '"2.0"' },
  ],
  'bench openxr --command scene': [
    { args: ['--seconds', '0'], names: '--seconds', got: '"0"' },
    { args: ['--seconds', 'soon'], names: '--seconds', got: '"soon"' },
  ],
  'bench vulkan': [
    { args: ['--command', 'recrod'], names: '--command', got: '"recrod"' },
    { args: ['--processes', '2.5'], names: '--processes', got: '"2.5"' },
  ],
};

/** One line on stderr, nothing on stdout, exit 2, naming the argument and pointing at the command's --help; never the usage. */
function expectArgumentError(r: Run, command: string, names: string, got: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(names);
  expect(r.stderr).toContain(got);
  expect(r.stderr).toContain(command === '' ? 'see `khronos-loader --help`' : `see \`khronos-loader ${command} --help\``);
  expect(r.stderr).not.toMatch(/usage:/);
}

describe('khronos-loader: one argument language', () => {
  it('CLI: the table has every command, and every command has a wrong-value case here', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      'info openxr',
      'info vulkan',
      'runtimes',
      'layers vulkan',
      'layers openxr',
      'demo',
      'doctor openxr',
      'doctor vulkan',
      'bench openxr',
      'bench openxr --command frame',
      'bench openxr --command scene',
      'bench vulkan',
    ]);
    expect(Object.keys(WRONG_VALUES).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });

  for (const spec of COMMANDS) {
    describe(spec.name, () => {
      it(`CLI: ${spec.name} --help and -h print its own help on stdout, every option listed, exit 0`, async () => {
        for (const flag of ['--help', '-h']) {
          const r = await cli([...words(spec), flag]);
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).toBe('');
          expect(r.stdout.split('\n')[0]).toBe(`usage: khronos-loader ${spec.usage ?? `${spec.name} [options]`}`);
          for (const o of spec.options) expect(r.stdout).toMatch(new RegExp(`^  ${o.name}\\b`, 'm'));
          expect(r.stdout).toContain('Exit code: ');
        }
        // Help wins over whatever else is on the line.
        const mixed = await cli([...words(spec), '--bogus', '--help']);
        expect(mixed.code).toBe(0);
        expect(mixed.stdout.split('\n')[0]).toBe(`usage: khronos-loader ${spec.usage ?? `${spec.name} [options]`}`);
      });

      it(`CLI: ${spec.name} with an unknown option: one line on stderr naming it and the options there are, exit 2`, async () => {
        const r = await cli([...words(spec), '--bogus']);
        expectArgumentError(r, spec.name, '"--bogus"', `${spec.name} takes`);
        for (const o of spec.options) expect(r.stderr).toContain(o.name);
      });

      it(`CLI: ${spec.name} with a wrong or missing value: one line naming the option, what it needs and what it got, exit 2`, async () => {
        for (const wrong of WRONG_VALUES[spec.name] ?? []) {
          expectArgumentError(await cli([...words(spec), ...wrong.args]), spec.name, `${wrong.names} needs `, `got ${wrong.got}`);
        }
        for (const o of spec.options) {
          if (o.kind === 'switch' || (spec.name === 'bench openxr --command frame' && o.name === '--command')) continue;
          expectArgumentError(await cli([...words(spec), o.name]), spec.name, `${o.name} needs `, 'got nothing');
        }
      });
    });
  }

  it('CLI: info and bench alone, or with an unknown target, say what they need (exit 2); --help lists their commands', async () => {
    for (const group of [INFO, BENCH]) {
      expectArgumentError(await cli([group.name]), group.name, 'needs a target', 'got nothing');
      expectArgumentError(await cli([group.name, 'metal']), group.name, '"openxr" or "vulkan"', 'got "metal"');
      const help = await cli([group.name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: khronos-loader ${group.name} <`));
      for (const c of group.commands) expect(help.stdout).toContain(c.name);
    }
    expectArgumentError(await cli(['doctor', 'metal']), 'doctor', '"openxr" or "vulkan"', 'got "metal"');
    expect(DOCTOR.default?.name).toBe('doctor openxr');
  });

  it('CLI: the top level: --help and help <command> on stdout (exit 0), --version and -V, an unknown command or none (exit 2)', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await cli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^usage: khronos-loader <command>/);
      for (const c of COMMANDS) expect(r.stdout).toContain(c.usage?.replace(/ \[options\]$/, '') ?? c.name);
    }
    for (const flag of ['--version', '-V']) expect(await cli([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const helpDemo = await cli(['help', 'demo']);
    expect(helpDemo.code).toBe(0);
    expect(helpDemo.stdout).toBe((await cli(['demo', '--help'])).stdout);
    expect((await cli(['help', 'bench', 'vulkan'])).stdout).toBe((await cli(['bench', 'vulkan', '--help'])).stdout);
    expectArgumentError(await cli(['frobnicate']), '', 'unknown command "frobnicate"', 'khronos-loader takes info, runtimes, layers, demo, doctor, bench, help, --help, --version');
    expectArgumentError(await cli(['--bogus']), '', 'unknown option "--bogus"', '--version');
    expectArgumentError(await cli([]), '', 'needs a command', 'got nothing');
    expectArgumentError(await cli(['help', 'frobnicate']), 'help', 'needs a command', 'got "frobnicate"');
  });
});

describe('khronos-loader as a process: help and argument errors without the native addon', () => {
  // Loading any native addon (process.dlopen) throws in these processes; the addon's folder is empty.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'kl-cli-'));
  const noAddon = pathToFileURL(path.join(tmp, 'no-addon.mjs')).href;
  writeFileSync(path.join(tmp, 'no-addon.mjs'), "process.dlopen = () => { throw new Error('a native addon was loaded'); };\n");
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  function processRun(args: readonly string[]): Promise<Run & { readonly signal: NodeJS.Signals | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--import', noAddon, path.join(repoRoot, 'lib/tools/cli/main.ts'), ...args], {
        cwd: repoRoot,
        env: { ...process.env, KHRONOS_LOADER_NATIVE_DIR: tmp },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
    });
  }

  it('CLI: --help, demo --help, info vulkan --help, --version and demo --seconds abc, each a real process', async () => {
    const [top, demo, infoVulkan, version, seconds] = await Promise.all([
      processRun(['--help']),
      processRun(['demo', '--help']),
      processRun(['info', 'vulkan', '--help']),
      processRun(['--version']),
      processRun(['demo', '--seconds', 'abc']),
    ]);
    for (const r of [top, demo, infoVulkan, version]) {
      // The first line of what went wrong, not its stack.
      expect({ signal: r.signal, code: r.code, stderr: r.stderr.split('\n')[0] }).toEqual({ signal: null, code: 0, stderr: '' });
    }
    expect(top.stdout).toMatch(/^usage: khronos-loader <command>/);
    expect(demo.stdout).toMatch(/^usage: khronos-loader demo \[options\]\n/);
    expect(infoVulkan.stdout).toMatch(/^usage: khronos-loader info vulkan \[options\]\n/);
    expect(version.stdout).toBe(`${VERSION}\n`);
    expect(seconds.code).toBe(2);
    expect(seconds.stdout).toBe('');
    expect(seconds.stderr).toBe('khronos-loader demo: --seconds needs a number of seconds greater than 0, got "abc"; see `khronos-loader demo --help`\n');
  });
});

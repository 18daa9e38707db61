// `khronos-loader runtimes` as a user runs it: a separate process over a home folder with runtimes
// registered in ~/.config/openxr/1/ (the package's simulated runtime, Monado, broken ones).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRuntimesArgs } from '../../lib/tools/cli/runtimes.js';
import type { ListedRuntime } from '../../lib/openxr/discovery/runtime-list.js';
import type { ComponentReport } from '../../lib/tools/doctor/openxr/report.js';
import { SIMULATED_RUNTIME_NAME, simulatedRuntime } from '../../lib/openxr/simulated-runtime.js';
import { MONADO_PROCESS_ENV, monadoUnderTest } from '../helpers/openxr-runtimes.js';
import { repoRoot } from '../helpers/paths.js';
import { skipOrFail } from '../helpers/system.js';
import { componentLibrary } from './fixture.js';

let home = '';
let folder = '';
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'kl-runtimes-cli-'));
  folder = path.join(home, '.config/openxr/1');
  mkdirSync(folder, { recursive: true });
  // The package's simulated runtime, registered as distributions register runtimes: a link to its manifest.
  symlinkSync(simulatedRuntime(), path.join(folder, 'khronos_simxr.json'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** A user's environment: this home, no XDG variables (so ~/.config is searched), system folders out of the way. */
function userEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_DIRS: path.join(home, 'no-system-config'),
    XDG_DATA_DIRS: path.join(home, 'no-system-data'),
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function cli(args: readonly string[], env: Record<string, string>): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'lib/tools/cli/main.ts'), ...args], { cwd: repoRoot, env, encoding: 'utf8', timeout: 180_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

type Entry = ListedRuntime & { check?: ComponentReport };

function manifest(name: string, libraryPath: string, extra: Record<string, unknown> = {}): string {
  const file = path.join(folder, name);
  writeFileSync(file, JSON.stringify({ file_format_version: '1.0.0', runtime: { library_path: libraryPath, ...extra } }, null, 2));
  return file;
}

describe('khronos-loader runtimes (CLI)', () => {
  it('the simulated runtime registered in ~/.config/openxr/1/ is listed with its name, text and --json', () => {
    const text = cli(['runtimes'], userEnv());
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^  ${SIMULATED_RUNTIME_NAME.replace(/[()]/g, '\\$&')}$`, 'm'));
    expect(text.stdout).toContain(`manifest:  ${path.join(folder, 'khronos_simxr.json')} (XDG_CONFIG_HOME)`);
    expect(text.stdout).toContain('none is active');
    expect(text.stderr).toBe('');

    // Made the active runtime: the same entry, marked.
    symlinkSync(simulatedRuntime(), path.join(folder, 'active_runtime.json'));
    const json = cli(['runtimes', '--json'], userEnv());
    expect(json.status).toBe(0);
    const { runtimes } = JSON.parse(json.stdout) as { runtimes: Entry[] };
    expect(runtimes.map((r) => [r.name, r.active, r.usable])).toEqual([[SIMULATED_RUNTIME_NAME, true, true]]);
    expect(runtimes[0]?.foundAt.map((f) => path.basename(f.path))).toEqual(['active_runtime.json', 'khronos_simxr.json']);
  });

  it('XR-RN-2, XR-RD-5: --check loads, negotiates and creates an instance on each runtime in a child process: the simulated runtime, Monado, broken ones', (ctx) => {
    const monado = monadoUnderTest();
    if (monado.manifest === undefined) skipOrFail(ctx, monado.skip ?? 'Monado is missing');
    symlinkSync(monado.manifest, path.join(folder, 'active_runtime.json'));
    manifest('missing_library.json', './libkl_not_there.so', { name: 'Missing library' });
    manifest('refuses_negotiation.json', componentLibrary('kl_doctor_runtime_error_result'));
    // Negotiates, lists its extensions, but has no xrCreateInstance.
    manifest('no_instance.json', componentLibrary('kl_doctor_runtime_ok'));
    writeFileSync(path.join(folder, 'truncated.json'), '{ "file_format_version": "1.0.0", "runtime": {');

    const r = cli(['runtimes', '--check', '--json', '--timeout', '30000'], userEnv(MONADO_PROCESS_ENV));
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const { runtimes, broken } = JSON.parse(r.stdout) as { runtimes: Entry[]; broken: boolean };
    expect(broken).toBe(false);
    const byName = new Map(runtimes.map((e) => [e.name, e]));
    expect([...byName.keys()]).toEqual(['Monado', SIMULATED_RUNTIME_NAME, 'Missing library', 'no_instance', 'refuses_negotiation', 'truncated']);

    const m = byName.get('Monado');
    expect(m?.active).toBe(true);
    expect(m?.check).toMatchObject({ status: 'ok', inForce: true, probe: { ran: true } });
    expect(m?.check?.negotiated?.runtimeName).toMatch(/^Monado/);
    expect(m?.check?.negotiated?.extensions?.map((e) => e.name)).toContain('XR_MND_headless');

    const s = byName.get(SIMULATED_RUNTIME_NAME);
    expect(s?.check).toMatchObject({ status: 'ok', inForce: false });
    expect(s?.check?.negotiated?.runtimeName).toMatch(/simulated/i);
    expect(s?.check?.negotiated?.runtimeVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(s?.check?.negotiated?.extensions?.map((e) => e.name)).toContain('XR_MND_headless');

    expect(byName.get('Missing library')?.check).toMatchObject({ status: 'broken', probe: { ran: false, reason: 'the library is missing' } });
    const refuses = byName.get('refuses_negotiation')?.check;
    expect(refuses).toMatchObject({ status: 'broken', probe: { ran: true } });
    expect(refuses?.problems.map((p) => p.stage)).toEqual(['negotiate']);
    expect(refuses?.problems[0]?.fix).toContain("`khronos-loader runtimes` lists them; XR_RUNTIME_JSON or the active_runtime.json link, or for one application only its runtime choice: --runtime '<name>' on the command line");
    const noInstance = byName.get('no_instance')?.check;
    expect(noInstance).toMatchObject({ status: 'broken', negotiated: { interfaceVersion: 1, extensions: [{ name: 'XR_KLDOCTOR_test_extension', extensionVersion: 7 }] } });
    expect(noInstance?.negotiated?.runtimeName).toBeUndefined();
    expect(noInstance?.problems).toEqual([
      expect.objectContaining({ severity: 'error', what: 'the runtime negotiated, but an instance cannot be created on it', why: expect.objectContaining({ reason: expect.stringContaining('XR_ERROR_FUNCTION_UNSUPPORTED (-7)') }) }),
    ]);
    const truncated = byName.get('truncated');
    expect(truncated?.usable).toBe(false);
    expect(truncated?.check).toMatchObject({ status: 'broken', probe: { ran: false } });
    expect(truncated?.check?.problems[0]?.why.file).toBe(path.join(folder, 'truncated.json'));

    // The text report says the same, and a broken active runtime makes the exit code 1.
    const text = cli(['runtimes', '--check', '--timeout', '30000'], userEnv({ ...MONADO_PROCESS_ENV, XR_RUNTIME_JSON: path.join(folder, 'refuses_negotiation.json') }));
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/^\* refuses_negotiation {2}\[active\]$/m);
    expect(text.stdout).toMatch(/^ {4}runtime: {3}Monado/m);
    expect(text.stdout).toContain('BROKEN: the active runtime does not work.');
  });

  it('demo --runtime takes a name from the list (and an unknown name is an argument error naming those there are)', () => {
    const r = cli(['demo', '--seconds', '1', '--runtime', SIMULATED_RUNTIME_NAME, '--json'], userEnv());
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { runtimeName: string; runtimeManifest: string; rendered: number };
    expect(result.runtimeName).toMatch(/simulated/i);
    expect(result.runtimeManifest).toBe(path.join(folder, 'khronos_simxr.json'));
    expect(result.rendered).toBeGreaterThan(0);
    const unknown = cli(['demo', '--seconds', '1', '--runtime', 'No Such Runtime'], userEnv());
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      `khronos-loader demo: --runtime needs "simulated" (the runtime bundled with khronos-loader), a runtime name that \`khronos-loader runtimes\` lists, or a runtime manifest path, got "No Such Runtime" (installed: "${SIMULATED_RUNTIME_NAME}"); see \`khronos-loader demo --help\`\n`,
    );
    expect(unknown.stderr).not.toMatch(/listRuntimes|createLoader/);
  });

  it('info openxr --runtime <name> shows what an application choosing that runtime gets, and says the application chose it', () => {
    const r = cli(['info', 'openxr', '--runtime', SIMULATED_RUNTIME_NAME], userEnv());
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Runtime (chosen by the application, instead of the active one):');
    expect(r.stdout).toContain(`  name:      ${SIMULATED_RUNTIME_NAME}`);
    expect(r.stdout).toContain(`  manifest:  ${path.join(folder, 'khronos_simxr.json')}`);
    expect(r.stdout).toContain(`why:       chosen by the application for this loader (createLoader({ runtime }), by the runtime named "${SIMULATED_RUNTIME_NAME}" in listRuntimes())`);
    const json = JSON.parse(cli(['info', 'openxr', '--json', '--runtime', path.join(folder, 'khronos_simxr.json')], userEnv()).stdout) as { runtime: { source: string } };
    expect(json.runtime.source).toBe('application');
    expect(cli(['info', 'openxr', '--runtime'], userEnv()).status).toBe(2);
  });

  it('CLI: --runtime simulated names the bundled runtime on info openxr and demo, and runtimes lists it as bundled, apart from the installed ones', () => {
    const info = cli(['info', 'openxr', '--runtime', 'simulated'], userEnv());
    expect(info.status, info.stderr).toBe(0);
    expect(info.stdout).toContain(`  name:      ${SIMULATED_RUNTIME_NAME}`);
    expect(info.stdout).toContain(`  manifest:  ${simulatedRuntime()}`);
    const demo = cli(['demo', '--seconds', '0.5', '--runtime', 'simulated', '--json'], userEnv());
    expect(demo.status, demo.stderr).toBe(0);
    expect((JSON.parse(demo.stdout) as { runtimeManifest: string }).runtimeManifest).toBe(simulatedRuntime());

    const text = cli(['runtimes'], userEnv());
    expect(text.stdout).toMatch(/^OpenXR runtimes installed: 1; none is active$/m);
    expect(text.stdout).toContain(`Bundled with khronos-loader (not installed, not counted above; needs no installing):\n  simulated — ${SIMULATED_RUNTIME_NAME}\n    manifest:  ${simulatedRuntime()}\n`);
    const json = JSON.parse(cli(['runtimes', '--json'], userEnv()).stdout) as { runtimes: Entry[]; bundled: { keyword: string; name: string; manifestPath: string } };
    expect(json.runtimes).toHaveLength(1);
    expect(json.bundled).toEqual({ keyword: 'simulated', name: SIMULATED_RUNTIME_NAME, manifestPath: simulatedRuntime() });
  });

  it('CLI: with no runtime active, doctor and runtimes --check agree: both say so and that the bundled runtime is there, and both exit 0', () => {
    // Nothing installed, nothing active, no API layers to probe.
    rmSync(path.join(folder, 'khronos_simxr.json'));
    const env = userEnv();
    const doctor = cli(['doctor'], env);
    const check = cli(['runtimes', '--check'], env);
    for (const r of [doctor, check]) {
      expect(r.signal).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^NO ACTIVE RUNTIME: .*nothing is broken \(exit code 0\)\. .*khronos-loader demo --runtime simulated/m);
      expect(r.stdout).not.toMatch(/BROKEN|listRuntimes|createLoader/);
    }
    expect(check.stdout).toContain('NO ACTIVE RUNTIME: no OpenXR runtime is installed,');
    expect(doctor.stdout).toMatch(/^\[warning\] runtime: none active \(in force\)$/m);
    const report = JSON.parse(cli(['doctor', '--json'], env).stdout) as { exitCode: number; broken: boolean; components: ComponentReport[] };
    expect(report).toMatchObject({ exitCode: 0, broken: false });
    expect(report.components[0]?.problems[0]?.fix).toContain('khronos-loader demo --runtime simulated');
    const listed = JSON.parse(cli(['runtimes', '--check', '--json'], env).stdout) as { runtimes: Entry[]; activeRuntime: boolean; exitCode: number };
    expect(listed).toMatchObject({ runtimes: [], activeRuntime: false, exitCode: 0 });

    // Installed but not active: the same verdict, with how many there are.
    symlinkSync(simulatedRuntime(), path.join(folder, 'khronos_simxr.json'));
    const installed = cli(['runtimes', '--check'], env);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toContain('NO ACTIVE RUNTIME: 1 OpenXR runtime is installed, but none is active');
    expect(cli(['doctor'], env).status).toBe(0);
  });

  it('argument errors exit with 2 and one line naming the argument (not the usage)', () => {
    expect(parseRuntimesArgs(['--check', '--json', '--all', '--timeout=100'])).toEqual({ json: true, check: true, all: true, timeoutMs: 100 });
    expect(parseRuntimesArgs(['--timeout', 'x'])).toBe('--timeout needs a number of milliseconds greater than 0, got "x"');
    const r = cli(['runtimes', '--bogus'], userEnv());
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('khronos-loader runtimes: unknown argument "--bogus": runtimes takes --check, --all, --json, --timeout <ms>, --set-active <name>, --help; see `khronos-loader runtimes --help`\n');
  });
});

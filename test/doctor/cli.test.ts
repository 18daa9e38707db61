// `khronos-loader doctor` as a user runs it: a separate process, its exit code and its --json.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDoctorArgs } from '../../lib/tools/cli/doctor.js';
import type { DoctorReport } from '../../lib/tools/doctor/index.js';
import { repoRoot } from '../helpers/paths.js';
import { componentLibrary, makeFixture } from './fixture.js';

function cli(args: readonly string[], env: Record<string, string>): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'lib/tools/cli/main.ts'), ...args], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('khronos-loader doctor (CLI)', () => {
  it('DOCTOR: --json over a crashing implicit layer: exit code 1, the report parses, the CLI itself exits normally', () => {
    const f = makeFixture({
      layers: [
        { name: 'XR_APILAYER_KLDOCTOR_segfault', libraryPath: componentLibrary('kl_doctor_layer_segfault'), implicit: true },
        { name: 'XR_APILAYER_KLDOCTOR_ok', libraryPath: componentLibrary('kl_doctor_layer_ok') },
      ],
    });
    const r = cli(['doctor', 'openxr', '--json', '--timeout', '2000'], { ...f.env, XR_LOADER_DEBUG: 'all' });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as DoctorReport;
    expect(report.timeoutMs).toBe(2000);
    expect(report.exitCode).toBe(1);
    const segv = report.components.find((c) => c.name === 'XR_APILAYER_KLDOCTOR_segfault');
    expect(segv?.inForce).toBe(true);
    expect(segv?.problems.map((p) => p.what)).toEqual(['crashed with SIGSEGV during negotiation']);
    expect(report.components.find((c) => c.name === 'XR_APILAYER_KLDOCTOR_ok')?.status).toBe('ok');
  });

  it('DOCTOR: the text report on a healthy tree: exit code 0, one block per component', () => {
    const f = makeFixture({ layers: [{ name: 'XR_APILAYER_KLDOCTOR_ok', libraryPath: componentLibrary('kl_doctor_layer_ok') }] });
    const r = cli(['doctor'], f.env);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\[ok\] +runtime libkl_doctor_runtime_ok\.so \(in force\)$/m);
    expect(r.stdout).toMatch(/^\[ok\] +explicit layer XR_APILAYER_KLDOCTOR_ok$/m);
    expect(r.stdout).toContain('extensions: XR_KLDOCTOR_test_extension v7');
    expect(r.stderr).toBe('');
  });

  it('DOCTOR: argument errors exit with 2 and one line naming the argument (not the usage)', () => {
    expect(parseDoctorArgs(['openxr', '--json', '--timeout=250'])).toEqual({ api: 'openxr', json: true, timeoutMs: 250 });
    expect(parseDoctorArgs([])).toEqual({ api: 'openxr', json: false });
    expect(parseDoctorArgs(['vulkan'])).toEqual({ api: 'vulkan', json: false });
    expect(parseDoctorArgs(['metal'])).toBe('needs a target, "openxr" or "vulkan" (or none: openxr), got "metal"');
    expect(parseDoctorArgs(['--timeout', 'soon'])).toBe('--timeout needs a number of milliseconds greater than 0, got "soon"');
    expect(parseDoctorArgs(['--frobnicate'])).toBe('unknown argument "--frobnicate": doctor openxr takes --json, --timeout <ms>, --help');
    const r = cli(['doctor', '--timeout'], makeFixture({}).env);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('khronos-loader doctor openxr: --timeout needs a number of milliseconds greater than 0, got nothing; see `khronos-loader doctor openxr --help`\n');
  });
});

// `khronos-loader info openxr` on this machine, with the Debian packages.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../lib/tools/cli/main.js';
import { repoRoot } from '../helpers/paths.js';
import { missingSystemComponent } from '../helpers/system.js';

const EXPLICIT = '/usr/share/openxr/1/api_layers/explicit.d';
const skip = missingSystemComponent({
  'openxr-layer-apidump': [`${EXPLICIT}/XrApiLayer_api_dump.x86_64-linux-gnu.json`],
  'openxr-layer-corevalidation': [`${EXPLICIT}/XrApiLayer_core_validation.x86_64-linux-gnu.json`],
});

/** Runs the CLI as a user would (through tsx), in this machine's environment. */
function cli(args: string[]): { stdout: string; status: number } {
  try {
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'lib/tools/cli/main.ts'), ...args], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, XR_LOADER_DEBUG: 'none' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { stdout, status: 0 };
  } catch (err) {
    const e = err as { stdout?: string; status?: number };
    return { stdout: e.stdout ?? '', status: e.status ?? -1 };
  }
}

describe.skipIf(skip !== null)(`khronos-loader info openxr on this machine${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('XR-LD-2 XR-CI-8: lists the Debian api_dump and core_validation layers as explicit, and every problem', () => {
    const { stdout, status } = cli(['info', 'openxr']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/Explicit API layers \(\d+\):/);
    for (const name of ['XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation']) {
      const block = stdout.slice(stdout.indexOf(`  ${name}\n`));
      expect(block).toMatch(new RegExp(`^  ${name}\\n    kind: +explicit\\n    manifest: +${EXPLICIT}/`));
    }
    expect(stdout).toMatch(/Problems \(\d+\):/);
  });

  it('XR-RD-2: says plainly when no runtime is installed (or names the active one)', () => {
    const { stdout } = cli(['info', 'openxr']);
    const runtimeInstalled = !/No OpenXR runtime is installed/.test(stdout);
    if (runtimeInstalled) expect(stdout).toMatch(/Active runtime:\n {2}manifest: +\S+\n {2}library: +\S+/);
    else expect(stdout).toMatch(/Active runtime:\n {2}No OpenXR runtime is installed: no active runtime manifest was found\.\n {2}looked for:/);
  });

  it('--json gives the discovery result as data', () => {
    const { stdout, status } = cli(['info', 'openxr', '--json']);
    expect(status).toBe(0);
    const data = JSON.parse(stdout) as { apiLayers: Array<{ name: string; kind: string; libraryPath: string }> };
    const dump = data.apiLayers.find((l) => l.name === 'XR_APILAYER_LUNARG_api_dump');
    expect(dump?.kind).toBe('explicit');
    expect(dump?.libraryPath).toMatch(/libXrApiLayer_api_dump\.so$/);
  });
});

describe('khronos-loader CLI', () => {
  it('unknown commands say so in one line and exit 2', async () => {
    const err: string[] = [];
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(err.join('')).toMatch(/^khronos-loader: unknown command "frobnicate": khronos-loader takes info, /);
    expect(await runCli(['info', 'metal'], io)).toBe(2);
    expect(await runCli([], io)).toBe(2);
    expect(await runCli(['info', 'openxr'], io)).toBe(0);
    expect(out.join('')).toMatch(/^OpenXR \(/);
  });
});

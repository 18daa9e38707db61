// What a user gets from `npm install khronos-loader`: the packed tarball, installed into a fresh
// project with install scripts disabled (npm 11's default for dependencies), must load its
// prebuilt addon and run its CLI. The pack happens in a copy of the tree so this test never
// disturbs the checkout's own build.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';

const npm = 'npm';
let work: string;
let tarball: string;
let packedFiles: string[];
let consumer: string;

function copyTree(to: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !f.startsWith('node_modules/'));
  for (const file of files) {
    const target = path.join(to, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      copyFileSync(path.join(repoRoot, file), target);
    } catch (error) {
      // A file deleted in the working tree but still tracked is simply not part of the copy.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

describe('BUILD: the npm package', () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'kl-pack-'));
    const source = path.join(work, 'source');
    copyTree(source);
    // `npm pack` runs prepack: TypeScript build and prebuildify (a from-source N-API build).
    const output = execFileSync(npm, ['pack', '--json', '--pack-destination', work], {
      cwd: source,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // The prepack scripts print to stdout too; npm's JSON report is the array at the end.
    const parsed = JSON.parse(output.slice(output.lastIndexOf('[\n  {'))) as { filename: string; files: { path: string }[] }[];
    const first = parsed[0];
    if (first === undefined) throw new Error('npm pack reported nothing');
    tarball = path.join(work, first.filename);
    packedFiles = first.files.map((f) => f.path).sort();

    consumer = path.join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module' }));
    execFileSync(npm, ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: consumer,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }, 600_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('BUILD: the tarball holds the compiled JS and types, native sources, CMakeLists.txt, the prebuild and the README, and no tests', () => {
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('README.md');
    expect(packedFiles).toContain('CMakeLists.txt');
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.d.ts');
    expect(packedFiles).toContain('dist/openxr/index.js');
    expect(packedFiles).toContain('dist/vulkan/index.js');
    expect(packedFiles).toContain('dist/cli/main.js');
    expect(packedFiles).toContain('native/common/dynamic_library.cc');
    expect(packedFiles).toContain('prebuilds/linux-x64/khronos-loader.node');
    // The shared libraries that ship beside the addon: the simulated runtime and the bundled layer.
    expect(packedFiles).toContain('prebuilds/linux-x64/libkhronos_simxr.so');
    expect(packedFiles).toContain('prebuilds/linux-x64/libkhronos_layer_passthrough.so');
    // The bundled pass-through Vulkan layer ships the same way (bench vulkan stacks copies of it).
    expect(packedFiles).toContain('prebuilds/linux-x64/libkhronos_vk_layer_passthrough.so');
    expect(packedFiles.filter((f) => f.startsWith('test/') || f.startsWith('lib/') || f.startsWith('scripts/'))).toEqual([]);
    expect(packedFiles.filter((f) => f.startsWith('build/') || f.startsWith('node_modules/'))).toEqual([]);
  });

  it('BUILD: installed with install scripts off, the package loads its prebuilt addon through node-gyp-build', () => {
    const script = [
      "const m = await import('khronos-loader');",
      "const { createRequire } = await import('node:module');",
      "const require = createRequire(import.meta.url);",
      "const dir = require('node:path').dirname(require.resolve('khronos-loader/package.json'));",
      "console.log(JSON.stringify({ napi: m.nativeInfo().napiVersion, file: require('node-gyp-build').path(dir) }));",
    ].join('\n');
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    const info = JSON.parse(output) as { napi: number; file: string };
    expect(info.napi).toBeGreaterThanOrEqual(8);
    expect(info.file).toMatch(/node_modules\/khronos-loader\/prebuilds\/linux-x64\/khronos-loader\.node$/);
  });

  it('BUILD: the bin runs from the installed package', () => {
    const output = execFileSync(path.join(consumer, 'node_modules/.bin/khronos-loader'), ['info', 'openxr', '--json'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toHaveProperty('apiLayers');
  });

  it('BUILD: bench runs its measuring children from the installed package', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    const output = execFileSync(bin, ['bench', 'openxr', '--layers', '0,1', '--iterations', '2000', '--repeats', '1', '--json'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const result = JSON.parse(output) as { rows: { layers: number; cells: Record<string, { wall?: { median: number } }> }[] };
    expect(result.rows.map((r) => r.layers)).toEqual([0, 1]);
    for (const row of result.rows) expect(row.cells['ours-trampoline']?.wall?.median).toBeGreaterThan(0);
  });

  it('#16: `khronos-loader runtimes` lists the package\'s simulated runtime registered in ~/.config/openxr/1/ by its name, and --check loads it', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    const home = path.join(work, 'home');
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_DIRS: path.join(home, 'none'), XDG_DATA_DIRS: path.join(home, 'none') };
    const simxr = execFileSync(process.execPath, ['--input-type=module', '-e', "import { simulatedRuntime } from 'khronos-loader/openxr'; process.stdout.write(simulatedRuntime());"], {
      cwd: consumer,
      encoding: 'utf8',
      env,
    });
    const folder = path.join(home, '.config/openxr/1');
    mkdirSync(folder, { recursive: true });
    symlinkSync(simxr, path.join(folder, 'khronos_simxr.json'));
    const text = execFileSync(bin, ['runtimes'], { cwd: consumer, encoding: 'utf8', env });
    expect(text).toMatch(/^ {2}khronos-loader simulated runtime \(simxr\)$/m);
    const checked = JSON.parse(execFileSync(bin, ['runtimes', '--check', '--json'], { cwd: consumer, encoding: 'utf8', env })) as {
      runtimes: { name: string; check?: { status: string; negotiated?: { runtimeName?: string } } }[];
    };
    const entry = checked.runtimes.find((r) => r.name === 'khronos-loader simulated runtime (simxr)');
    expect(entry?.check?.status).toBe('ok');
    expect(entry?.check?.negotiated?.runtimeName).toMatch(/simulated/i);
  });

  it('BUILD: doctor runs its probe children from the installed package', () => {
    const bin = path.join(consumer, 'node_modules/.bin/khronos-loader');
    // The runtime that ships in the package is on every machine: the doctor must load and
    // negotiate it in a probe child, whatever else is installed.
    const simxr = execFileSync(process.execPath, ['--input-type=module', '-e', "import { simulatedRuntime } from 'khronos-loader/openxr'; process.stdout.write(simulatedRuntime());"], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const result = spawnSync(bin, ['doctor', 'openxr', '--json'], { cwd: consumer, encoding: 'utf8', env: { ...process.env, XR_RUNTIME_JSON: simxr } });
    // Exit 0 or 1 depends on this machine's API layers; a crash or a usage error is neither.
    expect([0, 1], result.stderr).toContain(result.status);
    const report = JSON.parse(result.stdout) as { components: { kind: string; name: string; status: string; probe: { ran: boolean }; negotiated?: { extensions?: { name: string }[] } }[] };
    const runtime = report.components.find((c) => c.kind === 'runtime');
    expect(runtime).toMatchObject({ name: 'libkhronos_simxr.so', status: 'ok', probe: { ran: true } });
    // Only the probe child, having negotiated with the runtime, can know its extensions.
    expect(runtime?.negotiated?.extensions?.map((e) => e.name)).toContain('XR_MND_headless');
  });
});

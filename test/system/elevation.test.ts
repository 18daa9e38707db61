// Elevation for real: the loader runs in a process the kernel marked secure
// (AT_SECURE: a setuid-root helper built by this test that runs node, or a setgid copy of node,
// executed by the unprivileged user nobody), and every path-override variable of OpenXR and Vulkan is
// ignored there — the same variables that a control run (nobody, no helper) obeys. Needs root
// (to make a root-owned setuid file and to become nobody) and a file system without nosuid; where
// the machine cannot, the test skips with the exact reason (and fails under
// KHRONOS_LOADER_SYSTEM_TESTS=required: CI runs .ci/run as root on a plain file system).
// The checkout may sit in a folder nobody cannot enter (a home directory, `mktemp -d`), so the
// children run nothing from it: the fixture bundled into one file, koffi, node and the libraries
// the manifests name are copied into a folder they can read.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, testNativeDir } from '../helpers/paths.js';
import { skipOrFail } from '../helpers/system.js';

const NOBODY = 65534;
const fixture = path.join(repoRoot, 'test/system/fixtures/elevation-report.ts');

interface Report {
  ids: { uid: number; euid: number; gid: number; egid: number };
  atSecure: boolean;
  atSecureFromProc: boolean | null;
  openxr: { elevated: boolean; runtime: string | null; layers: string[] };
  vulkan: { elevated: boolean; layers: string[]; drivers: string[] };
}

/** Whether every folder from `dir` up to / lets other users through (the x bit for others). */
function othersCanEnter(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

/** The options of the mount that holds `dir`, and its mount point. */
function mountOptions(dir: string): { point: string; options: string[] } {
  let best = { point: '', options: [] as string[] };
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const f = line.split(' ');
    const point = f[4] ?? '';
    if ((dir === point || dir.startsWith(point.endsWith('/') ? point : `${point}/`)) && point.length >= best.point.length) best = { point, options: (f[5] ?? '').split(',') };
  }
  return best;
}

// Everything the children use lives under one folder nobody can read: the helper (which must not
// sit on a nosuid mount, so beside the build rather than in a tmpfs where that can be entered), the
// staged fixture and the manifests the variables point at.
const parents = [path.join(repoRoot, 'build'), os.tmpdir(), '/var/tmp'].filter((d) => existsSync(d));
const parent = parents.find((d) => othersCanEnter(d) && !mountOptions(d).options.includes('nosuid'));
const root = mkdtempSync(path.join(parent ?? path.join(repoRoot, 'build'), 'kl-elevation-'));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(relative: string, json: unknown): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, JSON.stringify(json));
  return file;
}
const dir = (relative: string): string => {
  const d = path.join(root, relative);
  mkdirSync(d, { recursive: true, mode: 0o755 });
  return d;
};
// The libraries the manifests name, copied where the children can see them.
const LIBRARIES = ['openxr_test_runtime/libkl_test_runtime.so', 'openxr_test_layers/libkl_test_layer_passthrough_0.so', 'vulkan_test_layers/libkl_vk_layer_a.so', 'vulkan_test_driver/libkl_vk_driver_v7.so'];
const library = (relative: string): string => path.join(root, 'libs', relative);
const xrRuntime = (name: string) => ({ file_format_version: '1.0.0', runtime: { name, library_path: library('openxr_test_runtime/libkl_test_runtime.so') } });
const xrLayer = (name: string, implicit = false) => ({
  file_format_version: '1.0.0',
  api_layer: {
    name,
    library_path: library('openxr_test_layers/libkl_test_layer_passthrough_0.so'),
    api_version: '1.0',
    implementation_version: '1',
    description: 'elevation marker',
    ...(implicit ? { disable_environment: `DISABLE_${name}` } : {}),
  },
});
const vkLayer = (name: string, implicit = false) => ({
  file_format_version: '1.1.2',
  layer: {
    name,
    type: 'GLOBAL',
    library_path: library('vulkan_test_layers/libkl_vk_layer_a.so'),
    api_version: '1.3.0',
    implementation_version: '1',
    description: 'elevation marker',
    ...(implicit ? { disable_environment: { [`DISABLE_${name}`]: '1' } } : {}),
  },
});
const vkDriver = () => ({ file_format_version: '1.0.1', ICD: { library_path: library('vulkan_test_driver/libkl_vk_driver_v7.so'), api_version: '1.3.0' } });

// Three sets, because some variables replace others (VK_LAYER_PATH hides VK_ADD_LAYER_PATH,
// VK_DRIVER_FILES hides VK_ICD_FILENAMES and both hide VK_ADD_DRIVER_FILES, XR_RUNTIME_JSON hides
// the per-user active runtime).
// Each variable points at something only it can bring in; `expect` lists those markers.
interface VariableSet {
  env: Record<string, string>;
  expected: { runtime: string | null; xrLayers: string[]; vkLayers: string[]; drivers: string[] };
}
function variableSets(): Record<'A' | 'B' | 'C', VariableSet> {
  const runtimeJson = write('a/xr_runtime_json.json', xrRuntime('XR_RUNTIME_JSON marker'));
  write('a/xr_api_layer_path/layer.json', xrLayer('XR_APILAYER_ELEV_api_layer_path'));
  write('a/data_home/openxr/1/api_layers/implicit.d/layer.json', xrLayer('XR_APILAYER_ELEV_xdg_data_home', true));
  write('a/vk_layer_path/layer.json', vkLayer('VK_LAYER_ELEV_vk_layer_path'));
  write('a/vk_implicit_layer_path/layer.json', vkLayer('VK_LAYER_ELEV_vk_implicit_layer_path', true));
  const driverFiles = write('a/vk_driver_files.json', vkDriver());
  const addDriverFiles = write('c/vk_add_driver_files.json', vkDriver());
  const perUserDriver = write('c/config_home/vulkan/icd.d/driver.json', vkDriver());
  const activeRuntime = write('b/config_home/openxr/1/active_runtime.json', xrRuntime('XDG_CONFIG_HOME marker'));
  write('b/config_home/vulkan/implicit_layer.d/layer.json', vkLayer('VK_LAYER_ELEV_xdg_config_home', true));
  write('b/data_home/vulkan/explicit_layer.d/layer.json', vkLayer('VK_LAYER_ELEV_xdg_data_home'));
  write('b/vk_add_layer_path/layer.json', vkLayer('VK_LAYER_ELEV_vk_add_layer_path'));
  write('b/vk_add_implicit_layer_path/layer.json', vkLayer('VK_LAYER_ELEV_vk_add_implicit_layer_path', true));
  const icdFilenames = write('b/vk_icd_filenames.json', vkDriver());
  const home = dir('home');
  return {
    A: {
      env: {
        HOME: home,
        XR_RUNTIME_JSON: runtimeJson,
        XR_API_LAYER_PATH: path.join(root, 'a/xr_api_layer_path'),
        XDG_DATA_HOME: path.join(root, 'a/data_home'),
        VK_LAYER_PATH: path.join(root, 'a/vk_layer_path'),
        VK_IMPLICIT_LAYER_PATH: path.join(root, 'a/vk_implicit_layer_path'),
        VK_DRIVER_FILES: driverFiles,
      },
      expected: {
        runtime: runtimeJson,
        xrLayers: ['XR_APILAYER_ELEV_api_layer_path', 'XR_APILAYER_ELEV_xdg_data_home'],
        vkLayers: ['VK_LAYER_ELEV_vk_layer_path', 'VK_LAYER_ELEV_vk_implicit_layer_path'],
        drivers: [driverFiles],
      },
    },
    B: {
      env: {
        HOME: home,
        XDG_CONFIG_HOME: path.join(root, 'b/config_home'),
        XDG_DATA_HOME: path.join(root, 'b/data_home'),
        VK_ADD_LAYER_PATH: path.join(root, 'b/vk_add_layer_path'),
        VK_ADD_IMPLICIT_LAYER_PATH: path.join(root, 'b/vk_add_implicit_layer_path'),
        VK_ICD_FILENAMES: icdFilenames,
      },
      expected: {
        runtime: activeRuntime,
        xrLayers: [],
        vkLayers: ['VK_LAYER_ELEV_xdg_config_home', 'VK_LAYER_ELEV_xdg_data_home', 'VK_LAYER_ELEV_vk_add_layer_path', 'VK_LAYER_ELEV_vk_add_implicit_layer_path'],
        drivers: [icdFilenames],
      },
    },
    C: {
      env: { HOME: home, XDG_CONFIG_HOME: path.join(root, 'c/config_home'), VK_ADD_DRIVER_FILES: addDriverFiles },
      expected: { runtime: null, xrLayers: [], vkLayers: [], drivers: [addDriverFiles, perUserDriver] },
    },
  };
}

// setuid: a root-owned setuid helper that execs node; node keeps euid 0, and the kernel marks
// that exec secure too (root's capabilities for a process whose real uid is not root).
// setgid: a setgid copy of node itself (group root), since a setgid helper's exec of node would
// not be marked secure again (no id changes in that exec, no capabilities).
type Helper = 'none' | 'setuid' | 'setgid';

/** Whether user nobody (not owner, not in the group) may execute `file` where it lies. */
function othersCanRun(file: string): boolean {
  return othersCanEnter(path.dirname(file)) && (statSync(file).mode & 0o005) === 0o005;
}

// node for the children: this one where nobody can run it, else a copy beside the helpers.
const childNode = (): string => (othersCanRun(process.execPath) ? process.execPath : path.join(root, 'node'));

/** Copies what the children run into `root`; why it cannot, or null. */
function stageChildren(): string | null {
  if (parent === undefined) return `no folder both enterable by other users and on a mount without nosuid among ${parents.join(', ')}`;
  const esbuild = path.join(repoRoot, 'node_modules', '.bin', 'esbuild');
  if (!existsSync(esbuild)) return `${esbuild} is missing: cannot bundle the fixture for the unprivileged children`;
  try {
    execFileSync(esbuild, [fixture, '--bundle', '--platform=node', '--format=esm', '--target=node20', '--external:koffi', '--log-level=error', `--outfile=${path.join(root, 'report.mjs')}`], { stdio: 'pipe' });
  } catch (e) {
    return `cannot bundle ${fixture} with esbuild: ${(e as Error).message}`;
  }
  // koffi and its native builds (optional dependencies under @koromix).
  for (const dependency of ['koffi', '@koromix']) {
    const from = path.join(repoRoot, 'node_modules', dependency);
    if (existsSync(from)) cpSync(from, path.join(root, 'node_modules', dependency), { recursive: true });
  }
  for (const relative of LIBRARIES) {
    mkdirSync(path.dirname(library(relative)), { recursive: true, mode: 0o755 });
    copyFileSync(path.join(testNativeDir, relative), library(relative));
  }
  if (!othersCanRun(process.execPath)) {
    copyFileSync(process.execPath, path.join(root, 'node'));
    chmodSync(path.join(root, 'node'), 0o755);
  }
  // What was copied keeps its modes; make sure all of it is readable by others.
  execFileSync('chmod', ['-R', 'a+rX', root]);
  try {
    accessSync(path.join(root, 'report.mjs'), constants.R_OK);
  } catch (e) {
    return `the staged fixture is not readable: ${(e as Error).message}`;
  }
  return null;
}

/** Why this machine cannot run the test, or null; builds the helpers when it can. */
function prepare(): string | null {
  if (process.getuid?.() !== 0) return `not root (uid ${process.getuid?.()}): cannot create a root-owned setuid helper nor run it as nobody`;
  const staged = stageChildren();
  if (staged !== null) return staged;
  const status = readFileSync('/proc/self/status', 'utf8');
  if (/^NoNewPrivs:\s*1/m.test(status)) return 'this process has no_new_privs set: setuid and setgid bits are ignored by exec';
  if (!existsSync('/usr/bin/setpriv')) return 'util-linux setpriv (/usr/bin/setpriv) is missing: cannot drop to nobody';
  const source = path.join(root, 'exec-helper.c');
  writeFileSync(source, '#include <stdio.h>\n#include <unistd.h>\nint main(int argc, char **argv) {\n  if (argc < 2) return 2;\n  execv(argv[1], argv + 1);\n  perror("execv");\n  return 127;\n}\n');
  const helper = path.join(root, 'exec-setuid');
  try {
    execFileSync('cc', ['-O2', '-o', helper, source], { stdio: 'pipe' });
  } catch (e) {
    return `cannot compile the helper with cc: ${(e as Error).message}`;
  }
  chownSync(helper, 0, 0);
  chmodSync(helper, 0o4755);
  const setgidNode = path.join(root, 'node-setgid');
  copyFileSync(process.execPath, setgidNode);
  chownSync(setgidNode, 0, 0);
  chmodSync(setgidNode, 0o2755);
  return null;
}

/** The mount that holds `dir` and whether it is nosuid (the usual reason setid bits do nothing). */
function mountOf(dir: string): string {
  const { point, options } = mountOptions(dir);
  return `${dir} is on the mount at ${point} (${options.join(',')})${options.includes('nosuid') ? ', which is nosuid' : ''}`;
}

function runAsNobody(helper: Helper, env: Record<string, string>): Report {
  const node = [helper === 'setgid' ? path.join(root, 'node-setgid') : childNode(), path.join(root, 'report.mjs')];
  const command = helper === 'setuid' ? [path.join(root, 'exec-setuid'), ...node] : node;
  const r = spawnSync('/usr/bin/setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', '--', ...command], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', XDG_CONFIG_DIRS: path.join(root, 'none'), XDG_DATA_DIRS: path.join(root, 'none'), ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`the ${helper} child failed (status ${r.status}, signal ${r.signal}): ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as Report;
  } catch {
    throw new Error(`the ${helper} child printed no report (stdout ${JSON.stringify(r.stdout)}, stderr ${JSON.stringify(r.stderr)})`);
  }
}

const cannot = prepare();
const sets = variableSets();

describe('elevation for real: setuid / setgid helper run by nobody', () => {
  it('XR-RD-1, XR-LD-3, VK-LD-1, VK-LD-4, VK-DR-1: the control run (nobody, not elevated) obeys every path-override variable', (ctx) => {
    if (cannot) skipOrFail(ctx, cannot);
    for (const [name, set] of Object.entries(sets)) {
      const r = runAsNobody('none', set.env);
      expect(r.ids, name).toEqual({ uid: NOBODY, euid: NOBODY, gid: NOBODY, egid: NOBODY });
      expect([r.atSecure, r.openxr.elevated, r.vulkan.elevated], name).toEqual([false, false, false]);
      if (set.expected.runtime !== null) expect(r.openxr.runtime, name).toBe(set.expected.runtime);
      expect(r.openxr.layers, name).toEqual(expect.arrayContaining(set.expected.xrLayers));
      expect(r.vulkan.layers, name).toEqual(expect.arrayContaining(set.expected.vkLayers));
      expect(r.vulkan.drivers, name).toEqual(expect.arrayContaining(set.expected.drivers));
    }
  });

  for (const helper of ['setuid', 'setgid'] as const) {
    it(`XR-RD-1, XR-LD-3, VK-LD-1, VK-LD-4, VK-DR-1: under a ${helper} helper (AT_SECURE) every one of them is ignored, for OpenXR and Vulkan`, (ctx) => {
      if (cannot) skipOrFail(ctx, cannot);
      for (const [name, set] of Object.entries(sets)) {
        const r = runAsNobody(helper, set.env);
        if (r.atSecure !== true) {
          skipOrFail(ctx, `the ${helper} run did not get AT_SECURE from the kernel (ids ${JSON.stringify(r.ids)}; ${mountOf(root)})`);
        }
        expect(helper === 'setuid' ? [r.ids.uid, r.ids.euid] : [r.ids.gid, r.ids.egid], name).toEqual([NOBODY, 0]);
        expect([r.openxr.elevated, r.vulkan.elevated], name).toEqual([true, true]);
        const everything = JSON.stringify(r);
        expect(everything.includes(root), `${name}: nothing of ${root} may be found: ${everything}`).toBe(false);
        for (const marker of [...set.expected.xrLayers, ...set.expected.vkLayers]) expect(everything, name).not.toContain(marker);
      }
    });
  }
});

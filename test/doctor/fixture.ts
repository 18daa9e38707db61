// Fixture trees for the doctor tests: a temporary folder with a runtime manifest (XR_RUNTIME_JSON),
// explicit layer manifests (XR_API_LAYER_PATH) and implicit ones (XDG_DATA_DIRS), pointing at the
// components built from test/native/doctor_broken/ — or deliberately at nothing usable.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testNativeDir } from '../helpers/paths.js';

export const brokenDir = path.join(testNativeDir, 'doctor_broken');

export function componentLibrary(target: string): string {
  return path.join(brokenDir, `lib${target}.so`);
}

export interface FixtureLayer {
  readonly name: string;
  readonly libraryPath: string;
  readonly implicit?: boolean;
  readonly disableEnvironment?: string;
  readonly functions?: Record<string, string>;
  readonly apiVersion?: string;
}

export interface Fixture {
  readonly root: string;
  readonly env: Record<string, string>;
  /** Discovery options that keep the search inside the fixture. */
  readonly discovery: { sysconfdir: string; extraSysconfdir: null };
  readonly runtimeManifest: string;
  manifestOf(layerName: string): string;
  /** A file in the fixture (for libraries that are not libraries). */
  writeFile(relative: string, data: string | Uint8Array): string;
}

export function makeFixture(options: { runtimeLibrary?: string; layers?: readonly FixtureLayer[]; env?: Record<string, string> }): Fixture {
  const root = mkdtempSync(path.join(os.tmpdir(), 'kl-doctor-'));
  const explicitDir = path.join(root, 'explicit');
  const dataDir = path.join(root, 'data');
  const implicitDir = path.join(dataDir, 'openxr/1/api_layers/implicit.d');
  for (const d of [explicitDir, implicitDir, path.join(root, 'home'), path.join(root, 'sysconf')]) mkdirSync(d, { recursive: true });
  const runtimeManifest = path.join(root, 'runtime.json');
  writeFileSync(
    runtimeManifest,
    JSON.stringify({ file_format_version: '1.0.0', runtime: { name: 'doctor fixture runtime', library_path: options.runtimeLibrary ?? componentLibrary('kl_doctor_runtime_ok') } }, null, 2),
  );
  const manifests = new Map<string, string>();
  for (const l of options.layers ?? []) {
    const file = path.join(l.implicit ? implicitDir : explicitDir, `${l.name}.json`);
    const api_layer: Record<string, unknown> = {
      name: l.name,
      library_path: l.libraryPath,
      api_version: l.apiVersion ?? '1.0',
      implementation_version: '1',
      description: `doctor fixture layer ${l.name}`,
    };
    if (l.functions) api_layer.functions = l.functions;
    if (l.implicit) api_layer.disable_environment = l.disableEnvironment ?? `DISABLE_${l.name}`;
    writeFileSync(file, JSON.stringify({ file_format_version: '1.0.0', api_layer }, null, 2));
    manifests.set(l.name, file);
  }
  const env: Record<string, string> = {
    HOME: path.join(root, 'home'),
    XDG_CONFIG_DIRS: path.join(root, 'config'),
    XDG_DATA_DIRS: dataDir,
    XDG_DATA_HOME: path.join(root, 'home/.local/share'),
    XDG_CONFIG_HOME: path.join(root, 'home/.config'),
    XR_RUNTIME_JSON: runtimeManifest,
    XR_API_LAYER_PATH: explicitDir,
    ...options.env,
  };
  return {
    root,
    env,
    discovery: { sysconfdir: path.join(root, 'sysconf'), extraSysconfdir: null },
    runtimeManifest,
    manifestOf(name) {
      const m = manifests.get(name);
      if (m === undefined) throw new Error(`no fixture layer ${name}`);
      return m;
    },
    writeFile(relative, data) {
      const file = path.join(root, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, data);
      return file;
    },
  };
}

/** A file that starts like a 32-bit little-endian i386 shared object (enough for the header check). */
export function elf32Header(): Uint8Array {
  const b = new Uint8Array(52);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1 /* ELFCLASS32 */, 1 /* little-endian */, 1 /* EV_CURRENT */]);
  const v = new DataView(b.buffer);
  v.setUint16(16, 3, true); // ET_DYN
  v.setUint16(18, 3, true); // EM_386
  v.setUint32(20, 1, true);
  return b;
}

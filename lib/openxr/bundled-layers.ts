// The pass-through API layer that ships with the package (native/bundled/layers/passthrough_layer.cc):
// copies of it, each under its own name and manifest, stacked to measure what a layer costs.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedLibraryFileName } from '../core/shared-library-name.js';
import { nativeArtifactDir } from '../core/native/load.js';
import { invalidArgument, libraryMissing } from '../core/errors.js';

export const PASSTHROUGH_LAYER_LIBRARY = sharedLibraryFileName('khronos_layer_passthrough');
export const PASSTHROUGH_LAYER_PREFIX = 'XR_APILAYER_KHRONOSLOADER_passthrough';

export interface PassthroughLayerSet {
  /** The folder of explicit-layer manifests: use it as XR_API_LAYER_PATH. */
  readonly folder: string;
  /** Layer names, nearest the application first: `${PASSTHROUGH_LAYER_PREFIX}_1` ... `_N`. */
  readonly names: readonly string[];
  /** Removes the folder (the libraries must no longer be loaded by then). */
  dispose(): void;
}

export function passthroughLayerLibrary(): string {
  const library = path.join(nativeArtifactDir(), PASSTHROUGH_LAYER_LIBRARY);
  if (!existsSync(library)) throw libraryMissing(library, 'the bundled pass-through layer');
  return library;
}

/**
 * Writes `count` pass-through layers into `folder` (a new temporary folder by default). Each is
 * a separate copy of the library, since one file opened twice is one library to the dynamic
 * linker and a layer must not sit in a chain twice.
 */
export function createPassthroughLayers(count: number, folder?: string): PassthroughLayerSet {
  if (!Number.isInteger(count) || count < 0) throw invalidArgument('count', 'a whole number >= 0 (the number of pass-through layers)', count);
  const source = passthroughLayerLibrary();
  const target = folder ?? mkdtempSync(path.join(os.tmpdir(), 'khronos-loader-layers-'));
  mkdirSync(target, { recursive: true });
  const names: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `${PASSTHROUGH_LAYER_PREFIX}_${i}`;
    const library = sharedLibraryFileName(`khronos_layer_passthrough_${i}`);
    copyFileSync(source, path.join(target, library));
    const manifest = {
      file_format_version: '1.0.0',
      api_layer: {
        name,
        library_path: `./${library}`,
        api_version: '1.1',
        implementation_version: '1',
        description: `khronos-loader pass-through layer ${i}: forwards every command unchanged`,
      },
    };
    writeFileSync(path.join(target, `${name}.json`), `${JSON.stringify(manifest, null, 2)}\n`);
    names.push(name);
  }
  return {
    folder: target,
    names,
    dispose: () => rmSync(target, { recursive: true, force: true }),
  };
}

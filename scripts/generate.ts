// Generates native/generated/* and lib/generated/* from the Khronos registries (xr.xml, vk.xml).
//   tsx scripts/generate.ts [--registry DIR] [--out DIR]
// The registry folder defaults to $KHRONOS_REGISTRY_DIR, else the pinned copies in
// scripts/registry/ (checked against PINNED_REGISTRIES first); the output root defaults to the
// repository root.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generator/index.js';

export { generate, renderAll } from './generator/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The registries committed with the repository (scripts/registry/, see its README). */
export const PINNED_REGISTRY_DIR = path.join(REPO_ROOT, 'scripts', 'registry');

/** SHA-256 of each pinned registry file: the generated sources are what these exact bytes give. */
export const PINNED_REGISTRIES: Readonly<Record<string, string>> = {
  'xr.xml': '7b9c2b2854bd920211a96c7142b954e74ec1226b10600623085a864941db5379',
  'vk.xml': '82bc15aec2889b0058f01d019a0b34d77e3d502da7b71b23f79882a489804957',
};

/** The registry folder used when none is given: the environment, else the pinned copies. */
export function defaultRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['KHRONOS_REGISTRY_DIR'];
  return fromEnv !== undefined && fromEnv !== '' ? path.resolve(fromEnv) : PINNED_REGISTRY_DIR;
}

/** Throws unless every pinned registry file in `dir` has its pinned SHA-256. */
export function checkPinnedRegistries(dir: string = PINNED_REGISTRY_DIR): void {
  for (const [file, expected] of Object.entries(PINNED_REGISTRIES)) {
    const actual = createHash('sha256').update(readFileSync(path.join(dir, file))).digest('hex');
    if (actual !== expected) {
      throw new Error(`${path.join(dir, file)} has SHA-256 ${actual}, pinned ${expected}: restore it, or update PINNED_REGISTRIES and scripts/registry/README.md with it`);
    }
  }
}

export interface CliOptions {
  readonly registryDir: string;
  readonly outDir: string;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  let registryDir = defaultRegistryDir(env);
  let outDir = REPO_ROOT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === '--registry' || arg === '--out') && (value === undefined || value.startsWith('--'))) {
      throw new Error(`${arg} needs a folder`);
    }
    if (arg === '--registry' && value !== undefined) {
      registryDir = path.resolve(value);
      i++;
    } else if (arg === '--out' && value !== undefined) {
      outDir = path.resolve(value);
      i++;
    } else {
      throw new Error(`unknown argument ${arg ?? ''}; usage: generate.ts [--registry DIR] [--out DIR]`);
    }
  }
  return { registryDir, outDir };
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  if (path.resolve(options.registryDir) === PINNED_REGISTRY_DIR) checkPinnedRegistries(options.registryDir);
  const files = generate(options);
  for (const f of files) {
    process.stdout.write(`wrote ${f.path} (${f.content.length} bytes)\n`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`generate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

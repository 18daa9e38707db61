// Generates native/generated/* and lib/generated/* from the Khronos registries (xr.xml, vk.xml).
//   tsx scripts/generate.ts [--registry DIR] [--out DIR]
// The registry folder defaults to $KHRONOS_REGISTRY_DIR, else <repo>/../shared/registry;
// the output root defaults to the repository root.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generator/index.js';

export { generate, renderAll } from './generator/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The registry folder used when none is given: the environment, else the shared folder beside the repo. */
export function defaultRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['KHRONOS_REGISTRY_DIR'];
  return fromEnv !== undefined && fromEnv !== '' ? path.resolve(fromEnv) : path.resolve(REPO_ROOT, '..', 'shared', 'registry');
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

// The code blocks of the README, as a reader copies them: each ```js block is a whole program. A
// console.log line may end with `// → text`: what the program prints there (the README-code tests
// check the printed lines contain each, in order).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.js';

export interface ReadmeBlock {
  /** 1-based line of the opening fence in README.md. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** The `// → text` annotations of its console.log lines, in order. */
  readonly prints: readonly string[];
}

export function readmeBlocks(file = path.join(repoRoot, 'README.md')): ReadmeBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const prints = body.flatMap((l) => {
      const m = /console\.log\(.*\/\/ → (.+)$/.exec(l);
      return m?.[1] === undefined ? [] : [m[1].trim()];
    });
    blocks.push({ line: start + 1, language: open[1] ?? '', code: `${body.join('\n')}\n`, prints });
  }
  return blocks;
}

/** Which annotations are missing from the output, in order (empty: every one was printed). */
export function missingPrints(block: ReadmeBlock, stdout: string): string[] {
  const out = stdout.split('\n');
  const missing: string[] = [];
  let from = 0;
  for (const expected of block.prints) {
    const at = out.findIndex((l, i) => i >= from && l.includes(expected));
    if (at < 0) missing.push(expected);
    else from = at + 1;
  }
  return missing;
}

/** Whether a block needs a Vulkan driver (it imports the Vulkan entry or uses the `vulkan` namespace). */
export function usesVulkan(block: ReadmeBlock): boolean {
  return /khronos-loader\/vulkan|vulkan\./.test(block.code);
}

/**
 * The environment a block runs in, as a reader's fresh shell: HOME (and its XDG folders) in `home`,
 * so no runtime of this machine is active and the simulated runtime's cache is new; the real
 * Vulkan driver; none of the loaders' variables this process may have.
 */
export function readerEnv(home: string, driverManifest: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache'), XDG_CONFIG_HOME: path.join(home, '.config'), VK_DRIVER_FILES: driverManifest, ...extra };
  for (const name of ['XR_RUNTIME_JSON', 'XR_API_LAYER_PATH', 'XR_ENABLE_API_LAYERS', 'VK_INSTANCE_LAYERS', 'VK_LOADER_DEBUG', 'XR_LOADER_DEBUG']) delete env[name];
  return env;
}

// Every code block of the README runs as written (a reader copies it into an ES module of their
// own): each ```js block is run as a program in a fresh folder, the package resolved by name, on
// the simulated runtime it ships and on the real Vulkan driver (lavapipe here). The shell blocks
// name npm scripts that exist. The same blocks run against the installed tarball in the packaging test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.js';
import { missingPrints, readerEnv, readmeBlocks, usesVulkan } from '../helpers/readme-blocks.js';
import { missingRealDriver, REAL_DRIVER_MANIFEST } from '../helpers/vulkan-lavapipe.js';
import { MONADO_PROCESS_ENV, monadoUnderTest } from '../helpers/openxr-runtimes.js';

const blocks = readmeBlocks();
const programs = blocks.filter((b) => ['js', 'mjs', 'javascript'].includes(b.language));
const folder = mkdtempSync(path.join(os.tmpdir(), 'kl-readme-'));
writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'readme-reader', version: '1.0.0', type: 'module' }));
const noDriver = missingRealDriver();

let failures = 0;
// A failed block's file stays (its path is in the failure's stack); a clean run leaves nothing.
afterAll(() => {
  if (failures === 0) rmSync(folder, { recursive: true, force: true });
});

describe('DOCS: the README code blocks', () => {
  it('DOCS: the README has program blocks, and every block is js or sh', () => {
    expect(programs.length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((b) => !['js', 'sh'].includes(b.language)).map((b) => `line ${b.line}: \`\`\`${b.language}`)).toEqual([]);
  });

  it('DOCS: every `npm run <script>` in a shell block is a script of package.json', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = blocks.filter((b) => b.language === 'sh').flatMap((b) => [...b.code.matchAll(/npm run ([\w-]+(?::[\w-]+)*)/g)].map((m) => m[1] ?? ''));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((s) => scripts[s] === undefined)).toEqual([]);
  });

  // The frame-loop example unchanged on a runtime we did not write: Monado headless answers
  // predictedDisplayTime 0, and the example locates at the loop's times (XR_KHR_convert_timespec_time,
  // which createInstance enables along with XR_MND_headless); time 0 failed locateViews with XR_ERROR_TIME_INVALID.
  const monado = monadoUnderTest();
  const frameLoopBlock = programs.find((b) => b.code.includes('runFrameLoop') && b.code.includes('locateViews'));
  it.skipIf(monado.skip !== null)('NODE-4 DOCS: the README frame-loop example runs unchanged on Monado', () => {
    expect(frameLoopBlock).toBeDefined();
    const block = frameLoopBlock!;
    const file = path.join(folder, `block-${block.line}-monado.mjs`);
    writeFileSync(file, block.code);
    const home = mkdtempSync(path.join(folder, 'home-'));
    const env = readerEnv(home, REAL_DRIVER_MANIFEST, { TSX_TSCONFIG_PATH: path.join(repoRoot, 'tsconfig.json') });
    for (const [k, v] of Object.entries(MONADO_PROCESS_ENV)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    env.XR_RUNTIME_JSON = monado.manifest;
    const run = spawnSync(process.execPath, ['--import', path.join(repoRoot, 'node_modules/tsx/dist/esm/index.mjs'), file], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
    failures++;
    const report = `exit ${run.status} signal ${run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
    expect(run.signal, report).toBeNull();
    expect(run.status, report).toBe(0);
    // The session ran through its states (the example prints each) on Monado, to the end.
    expect(run.stdout.split('\n'), report).toEqual(expect.arrayContaining(['ready', 'focused', 'stopping', 'exiting']));
    failures--;
  });

  for (const block of programs) {
    it.skipIf(usesVulkan(block) && noDriver !== null)(`DOCS: the block at README.md line ${block.line} runs as written and prints what it says`, () => {
      const file = path.join(folder, `block-${block.line}.mjs`);
      writeFileSync(file, block.code);
      // The package by name, mapped to this checkout's sources by tsconfig's paths (tsx).
      const home = mkdtempSync(path.join(folder, 'home-'));
      const env = readerEnv(home, REAL_DRIVER_MANIFEST, { TSX_TSCONFIG_PATH: path.join(repoRoot, 'tsconfig.json') });
      const run = spawnSync(process.execPath, ['--import', path.join(repoRoot, 'node_modules/tsx/dist/esm/index.mjs'), file], { cwd: folder, env, encoding: 'utf8', timeout: 60_000 });
      failures++;
      const report = `exit ${run.status} signal ${run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
      expect(run.signal, report).toBeNull();
      expect(run.status, report).toBe(0);
      expect(missingPrints(block, run.stdout), report).toEqual([]);
      failures--;
    });
  }
});

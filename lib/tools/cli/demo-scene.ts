// `khronos-loader demo --scene`: runs the XR scene example (examples/xr-scene.ts, compiled to
// dist/examples/xr-scene.js in the package) on the bundled simulated runtime or --runtime's, and
// reports what it printed: frames drawn and missed, JavaScript time per frame.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../core/native/load.js';
import { examplePath } from '../../core/examples.js';
import { simulatedRuntime } from '../../openxr/simulated-runtime.js';

export interface SceneDemoResult {
  readonly runtime: string;
  readonly framesDrawn: number;
  readonly frames: number;
  readonly missed: number;
  readonly cubeFrames: readonly [number, number];
  readonly handFrames: readonly [number, number];
  /** Mean ms of the JavaScript thread per frame drawn. */
  readonly msPerFrame: number;
}

/** @internal What the tools use of examples/xr-scene.ts (imported at run time: it is an example, not the library). */
export interface SceneModule {
  runXrScene(
    seconds: number,
    log: (line: string) => void,
    hooks?: { readonly beforeFrame?: () => void },
  ): Promise<{
    stats: { framesDrawn: number; cubeFrames: [number, number]; handFrames: [number, number]; renderMs: number };
    frames: number;
    missed: number;
    multiview: boolean;
  }>;
}

/** @internal The example program: the compiled one the package ships, else its source (a checkout run under tsx). */
export function sceneModulePath(): string {
  const compiled = path.join(packageRoot, 'dist', 'examples', 'xr-scene.js');
  return existsSync(compiled) ? compiled : examplePath('xr-scene.ts');
}

/** `runtime`: a runtime manifest's path (default the simulated runtime's). */
export async function runSceneDemo(options: { readonly seconds: number; readonly runtime?: string }, log: (line: string) => void): Promise<SceneDemoResult> {
  const runtime = options.runtime ?? simulatedRuntime();
  process.env.XR_RUNTIME_JSON = runtime;
  const scene = (await import(pathToFileURL(sceneModulePath()).href)) as SceneModule;
  log(`runtime: ${runtime}`);
  const r = await scene.runXrScene(options.seconds, log);
  const s = r.stats;
  return {
    runtime,
    framesDrawn: s.framesDrawn,
    frames: r.frames,
    missed: r.missed,
    cubeFrames: s.cubeFrames,
    handFrames: s.handFrames,
    msPerFrame: s.framesDrawn === 0 ? 0 : s.renderMs / s.framesDrawn,
  };
}

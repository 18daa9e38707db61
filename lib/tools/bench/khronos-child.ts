// The Khronos-side child process: `node [--import tsx] khronos-child.(ts|js) '<request JSON>'`.
// Its environment (set by the parent) chooses the runtime and layers for the other loader
// (XR_RUNTIME_JSON, XR_API_LAYER_PATH, XR_ENABLE_API_LAYERS); it dlopens that loader through the
// addon, sets up the command's scenario through the loader's exports, times it with the same
// native loop as this package's side (and koffi when asked), and sends the result over IPC.
import { loadToolsAddon } from '../native/addon.js';
import { runChildMain } from './child-process.js';
import type { KhronosChildRequest, KhronosChildResult } from './child-protocol.js';
import { loadKoffi, measureKoffiLocateSpace } from './koffi-side.js';
import { measureNativePair } from './measure-native.js';

async function run(request: KhronosChildRequest): Promise<KhronosChildResult> {
  const scenario = new (loadToolsAddon().OpenXrBenchScenario)({ command: request.command, loaderLibrary: request.libraryPath });
  try {
    const { trampoline, pointer } = measureNativePair(scenario, request.plan);
    const pointerOrigin = scenario.pointerOrigin;
    if (!request.koffi) return { ok: true, trampoline, pointer, pointerOrigin };
    const koffi = await loadKoffi();
    const koffiResult = 'unavailable' in koffi
      ? koffi
      : measureKoffiLocateSpace(koffi, request.libraryPath, scenario.handles, scenario.time, request.plan);
    return { ok: true, trampoline, pointer, pointerOrigin, koffi: koffiResult };
  } finally {
    scenario.destroy();
  }
}

runChildMain<KhronosChildRequest, KhronosChildResult>(run, (error) => ({ ok: false, error: `khronos-child: ${error}` }));

// The Khronos-side child process: `node [--import tsx] khronos-child.(ts|js) '<request JSON>'`.
// Its environment (set by the parent) chooses the runtime and layers for the other loader
// (XR_RUNTIME_JSON, XR_API_LAYER_PATH, XR_ENABLE_API_LAYERS); it dlopens that loader through the
// addon, sets up the command's scenario through the loader's exports, times it with the same
// native loop as this package's side (and koffi when asked), and sends the result over IPC.
import { loadNativeAddon } from '../native.js';
import type { KhronosChildRequest, KhronosChildResult } from './khronos-protocol.js';
import { loadKoffi, measureKoffiLocateSpace } from './koffi-side.js';
import { measureNative } from './measure-native.js';

async function run(request: KhronosChildRequest): Promise<KhronosChildResult> {
  const scenario = new (loadNativeAddon().OpenXrBenchScenario)({ command: request.command, loaderLibrary: request.libraryPath });
  try {
    const trampoline = measureNative(scenario, 'trampoline', request.plan);
    const pointer = measureNative(scenario, 'pointer', request.plan);
    if (!request.koffi) return { ok: true, trampoline, pointer };
    const koffi = await loadKoffi();
    const koffiResult = 'unavailable' in koffi
      ? koffi
      : measureKoffiLocateSpace(koffi, request.libraryPath, scenario.handles, scenario.time, request.plan);
    return { ok: true, trampoline, pointer, koffi: koffiResult };
  } finally {
    scenario.destroy();
  }
}

function send(result: KhronosChildResult): void {
  if (!process.send) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.send(result, () => process.disconnect());
}

const argument = process.argv[2];
if (argument === undefined) {
  send({ ok: false, error: 'khronos-child: no request argument' });
} else {
  run(JSON.parse(argument) as KhronosChildRequest).then(send, (error: unknown) =>
    send({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
}

// The `bench vulkan --command record` side in a child process:
// `node [--import tsx] vulkan-record-child.(ts|js) '<request JSON>'`. Its environment (set by the
// parent) chooses the driver (VK_DRIVER_FILES) and leaves the layers out; this package's loader
// plans from it. Answers one RecordChildResult.
import { createLoader } from '../../vulkan/loader.js';
import { runChildMain } from './child-process.js';
import type { RecordChildRequest, RecordChildResult } from './vulkan-record-protocol.js';
import { createRecordScenario, measureRecord } from './vulkan-record.js';
import { createDrawScenario, measureDraws } from './vulkan-record-draws.js';
import { VK_API_VERSION_1_3 } from '../../generated/vulkan.js';

function run(request: RecordChildRequest): RecordChildResult {
  // The frame of draws: dynamic rendering needs a Vulkan 1.3 instance.
  const draws = request.frame === 'draws';
  const instance = createLoader().createInstance({ applicationName: draws ? 'khronos-loader bench record draws' : 'khronos-loader bench record', ...(draws && { apiVersion: VK_API_VERSION_1_3 }) });
  try {
    const deviceName = instance.enumeratePhysicalDevices()[0]?.properties.deviceName ?? 'unknown';
    const measurement = draws ? measureDraws(createDrawScenario(instance), request.plan, request.draws) : measureRecord(createRecordScenario(instance), request.plan, request.commands);
    return { ok: true, deviceName, measurement };
  } finally {
    instance.destroy();
  }
}

runChildMain<RecordChildRequest, RecordChildResult>(run, (error) => ({ ok: false, error: `vulkan-record-child: ${error}` }));

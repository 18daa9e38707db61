// The `bench vulkan --command record` side in a child process:
// `node [--import tsx] vulkan-record-child.(ts|js) '<request JSON>'`. Its environment (set by the
// parent) chooses the driver (VK_DRIVER_FILES) and leaves the layers out; this package's loader
// plans from it. Answers one RecordChildResult.
import { createLoader } from '../../vulkan/loader.js';
import { runChildMain } from './child-process.js';
import type { RecordChildRequest, RecordChildResult } from './vulkan-record-protocol.js';
import { createRecordScenario, measureRecord } from './vulkan-record.js';

function run(request: RecordChildRequest): RecordChildResult {
  const instance = createLoader().createInstance({ applicationName: 'khronos-loader bench record' });
  try {
    const scenario = createRecordScenario(instance);
    const deviceName = instance.enumeratePhysicalDevices()[0]?.properties.deviceName ?? 'unknown';
    return { ok: true, deviceName, measurement: measureRecord(scenario, request.plan, request.commands) };
  } finally {
    instance.destroy();
  }
}

runChildMain<RecordChildRequest, RecordChildResult>(run, (error) => ({ ok: false, error: `vulkan-record-child: ${error}` }));

// The doctor on this machine's real setup: Debian's api_dump and core_validation layers must
// load and negotiate in the probe processes.
import { describe, expect, it } from 'vitest';
import { doctor } from '../../lib/tools/doctor/index.js';
import { missingSystemComponent } from '../helpers/system.js';

const API_DUMP = '/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_api_dump.x86_64-linux-gnu.json';
const CORE_VALIDATION = '/usr/share/openxr/1/api_layers/explicit.d/XrApiLayer_core_validation.x86_64-linux-gnu.json';

describe('doctor on the real system', () => {
  const missing = missingSystemComponent({
    'OpenXR api_dump layer (Debian libopenxr1-dev / xr layers)': [API_DUMP],
    'OpenXR core_validation layer': [CORE_VALIDATION],
  });

  it.skipIf(missing !== null)('DOCTOR: api_dump and core_validation negotiate in child processes', async () => {
    const env = { ...process.env };
    // This machine's setup, not the test runner's overrides.
    delete env.XR_API_LAYER_PATH;
    delete env.XR_ENABLE_API_LAYERS;
    const report = await doctor({ env, logWriter: () => undefined });
    for (const name of ['XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation']) {
      const c = report.components.find((x) => x.name === name);
      expect(c, name).toBeDefined();
      expect(c?.status, JSON.stringify(c?.problems)).toBe('ok');
      expect(c?.probe.ran).toBe(true);
      expect(c?.negotiated?.interfaceVersion).toBe(1);
      expect(c?.negotiated?.apiVersion).toMatch(/^1\.0\.\d+$/);
    }
  });
});

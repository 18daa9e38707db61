// The Vulkan loader policy in code, createLoader({ layers, drivers, devices }), rule by rule over
// fixture platforms: each rule alone, then against the environment and the settings file it comes
// after (docs/usage.md, "Loader policy in code").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixturePlatform } from '../../../lib/core/platform/fixture.js';
import { InvalidArgumentError } from '../../../lib/core/errors.js';
import { VulkanLayerNotPresentError } from '../../../lib/vulkan/errors.js';
import { createLoader } from '../../../lib/vulkan/loader.js';
import type { VulkanDiscoveryOptions } from '../../../lib/vulkan/discovery/context.js';
import { makeTempRoot, put, vkDriverManifest, vkLayerManifest, type VkLayerSpec } from './fixtures.js';

let tree: ReturnType<typeof makeTempRoot> | undefined;
beforeEach(() => void (tree = makeTempRoot('kl-vkpol-')));
afterEach(() => tree?.cleanup());
const at = (): string => tree?.root ?? '';

const IMP = '/usr/share/vulkan/implicit_layer.d';
const EXP = '/usr/share/vulkan/explicit_layer.d';
/** A layer manifest under the fixture root, its library a path of its own name. */
const layer = (p: string, spec: VkLayerSpec): string => put(at(), p, vkLayerManifest({ library_path: `/usr/lib/${spec.name}.so`, ...spec }));
const implicit = (name: string, extra: Partial<VkLayerSpec> = {}): string => layer(`${IMP}/${name}.json`, { name, disable_environment: { [`DISABLE_${name}`]: '1' }, ...extra });
const explicit = (name: string): string => layer(`${EXP}/${name}.json`, { name });

/** A loader over the fixture root with these policy options and this environment (HOME=/home/me). */
function loader(options: Omit<VulkanDiscoveryOptions, 'platform'> = {}, env: Record<string, string> = {}) {
  const platform = createFixturePlatform({ root: at(), executablePath: '/usr/bin/app', env: { HOME: '/home/me', ...env } });
  return createLoader({ platform, logWriter: () => {}, ...options });
}
const chain = (options: Omit<VulkanDiscoveryOptions, 'platform'>, requested: string[] = [], env: Record<string, string> = {}): string[] => loader(options, env).resolveEnabledLayers(requested);

/** Two implicit layers (one an overlay), two explicit ones; the loader's order is by file name. */
function fourLayers(): void {
  implicit('VK_LAYER_OVERLAY_steam');
  implicit('VK_LAYER_MESA_device_select');
  explicit('VK_LAYER_KHRONOS_validation');
  explicit('VK_LAYER_LUNARG_api_dump');
}

describe('Vulkan loader policy: layers', () => {
  it('VK-PO-1: layers.disable takes matching layers out (globs, ~implicit~, ~explicit~): not enumerated, a request is VK_ERROR_LAYER_NOT_PRESENT', () => {
    fourLayers();
    const l = loader({ layers: { disable: ['*overlay*'] } });
    expect(l.resolveEnabledLayers([])).toEqual(['VK_LAYER_MESA_device_select']);
    expect(l.enumerateInstanceLayerProperties().map((p) => p.layerName)).not.toContain('VK_LAYER_OVERLAY_steam');
    expect(() => l.resolveEnabledLayers(['VK_LAYER_OVERLAY_steam'])).toThrow(VulkanLayerNotPresentError);
    const info = l.discovery.layers.find((x) => x.name === 'VK_LAYER_OVERLAY_steam');
    expect(info).toMatchObject({ available: false, enabled: false });
    expect(info?.reason).toMatch(/createLoader\(\{ layers: \{ disable \} \}\)/);
    expect(chain({ layers: { disable: ['~implicit~'] } }, ['VK_LAYER_KHRONOS_validation'])).toEqual(['VK_LAYER_KHRONOS_validation']);
    expect(() => chain({ layers: { disable: ['~explicit~'] } }, ['VK_LAYER_KHRONOS_validation'])).toThrow(VulkanLayerNotPresentError);
    // Case does not matter, as in the filter variables.
    expect(chain({ layers: { disable: ['vk_layer_mesa_*'] } })).toEqual(['VK_LAYER_OVERLAY_steam']);
  });

  it('VK-PO-1: layers.disable wins over VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE and the settings file; layers.allow and layers.enable protect from it', () => {
    fourLayers();
    const env = { VK_INSTANCE_LAYERS: 'VK_LAYER_LUNARG_api_dump', VK_LOADER_LAYERS_ENABLE: '*validation' };
    expect(chain({}, [], env)).toEqual(['VK_LAYER_MESA_device_select', 'VK_LAYER_OVERLAY_steam', 'VK_LAYER_LUNARG_api_dump', 'VK_LAYER_KHRONOS_validation']);
    expect(chain({ layers: { disable: ['~explicit~'] } }, [], env)).toEqual(['VK_LAYER_MESA_device_select', 'VK_LAYER_OVERLAY_steam']);
    expect(chain({ layers: { disable: ['~all~'], allow: ['*api_dump'] } }, [], env)).toEqual(['VK_LAYER_LUNARG_api_dump']);
    put(at(), '/home/me/.config/vulkan/loader_settings.d/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.0', settings: { layers: [{ control: 'on', name: 'VK_LAYER_KHRONOS_validation', path: `${EXP}/VK_LAYER_KHRONOS_validation.json` }, { control: 'unordered_layer_location' }] } }));
    expect(chain({})[0]).toBe('VK_LAYER_KHRONOS_validation');
    expect(chain({ layers: { disable: ['VK_LAYER_KHRONOS_validation'] } })).not.toContain('VK_LAYER_KHRONOS_validation');
  });

  it('VK-PO-1: layers.allow and layers.enable keep what VK_LOADER_LAYERS_DISABLE takes out (as VK_LOADER_LAYERS_ALLOW)', () => {
    fourLayers();
    const env = { VK_LOADER_LAYERS_DISABLE: '~all~' };
    expect(chain({}, [], env)).toEqual([]);
    expect(() => chain({}, ['VK_LAYER_KHRONOS_validation'], env)).toThrow(VulkanLayerNotPresentError);
    expect(chain({ layers: { allow: ['VK_LAYER_KHRONOS_*'] } }, ['VK_LAYER_KHRONOS_validation'], env)).toEqual(['VK_LAYER_KHRONOS_validation']);
    expect(chain({ layers: { allow: ['*device_select'] } }, [], env)).toEqual(['VK_LAYER_MESA_device_select']);
  });

  it('VK-PO-2: layers.enable turns on explicit layers before the application\'s, and implicit ones whatever their environment and the settings file say', () => {
    fourLayers();
    implicit('VK_LAYER_T_gated', { enable_environment: { GATE: '1' } });
    expect(chain({ layers: { enable: ['*api_dump'] } }, ['VK_LAYER_KHRONOS_validation'])).toEqual(['VK_LAYER_MESA_device_select', 'VK_LAYER_OVERLAY_steam', 'VK_LAYER_LUNARG_api_dump', 'VK_LAYER_KHRONOS_validation']);
    expect(chain({ layers: { enable: ['VK_LAYER_T_gated'] } })).toContain('VK_LAYER_T_gated');
    expect(chain({ layers: { enable: ['VK_LAYER_OVERLAY_steam'] } }, [], { DISABLE_VK_LAYER_OVERLAY_steam: '1' })).toContain('VK_LAYER_OVERLAY_steam');
    const plan = loader({ layers: { enable: ['*api_dump'] } }).planInstance();
    expect(plan.layers.find((x) => x.name === 'VK_LAYER_LUNARG_api_dump')).toMatchObject({ origin: 'policy', reason: 'turned on by createLoader({ layers: { enable } }) ("*api_dump")' });
    // A layer the settings file turns off comes back.
    put(at(), '/home/me/.config/vulkan/loader_settings.d/vk_loader_settings.json', JSON.stringify({ file_format_version: '1.0.0', settings: { layers: [{ control: 'off', name: 'VK_LAYER_LUNARG_api_dump', path: `${EXP}/VK_LAYER_LUNARG_api_dump.json` }, { control: 'unordered_layer_location' }] } }));
    expect(chain({})).not.toContain('VK_LAYER_LUNARG_api_dump');
    expect(chain({ layers: { enable: ['VK_LAYER_LUNARG_api_dump'] } })).toContain('VK_LAYER_LUNARG_api_dump');
  });

  it('VK-PO-3: safe mode loads no implicit layer the application (its names or layers.enable) does not name, whatever the environment enables', () => {
    fourLayers();
    const env = { VK_LOADER_LAYERS_ENABLE: '*overlay*' };
    expect(chain({ layers: { safe: true } }, [], env)).toEqual([]);
    expect(chain({ layers: { safe: true } }, ['VK_LAYER_MESA_device_select'])).toEqual(['VK_LAYER_MESA_device_select']);
    expect(chain({ layers: { safe: true, enable: ['VK_LAYER_OVERLAY_*'] } })).toEqual(['VK_LAYER_OVERLAY_steam']);
    expect(chain({ layers: { safe: true } }, [], { VK_INSTANCE_LAYERS: 'VK_LAYER_LUNARG_api_dump' })).toEqual(['VK_LAYER_LUNARG_api_dump']);
    const l = loader({ layers: { safe: true } });
    expect(l.planInstance().decisions).toContain('layer VK_LAYER_OVERLAY_steam not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name');
    expect(l.discovery.layers.find((x) => x.name === 'VK_LAYER_MESA_device_select')?.reason).toMatch(/safe mode/);
  });

  it('VK-PO-3: safe mode also keeps out the implicit override (meta) layer\'s components unless the application names it', () => {
    implicit('VK_LAYER_T_component');
    put(at(), `${IMP}/o.json`, vkLayerManifest({ name: 'VK_LAYER_LUNARG_override', file_format_version: '1.1.2', component_layers: ['VK_LAYER_T_component'], disable_environment: { NO_OVERRIDE: '1' } }));
    expect(chain({})).toEqual(['VK_LAYER_T_component']);
    expect(chain({ layers: { safe: true } })).toEqual([]);
    expect(chain({ layers: { safe: true } }, ['VK_LAYER_T_component'])).toEqual(['VK_LAYER_T_component']);
  });

  it('VK-PO-4: layers.order puts the layers each entry matches first, in its order; the rest keep theirs; the plan says so', () => {
    fourLayers();
    const req = ['VK_LAYER_KHRONOS_validation', 'VK_LAYER_LUNARG_api_dump'];
    expect(chain({}, req)).toEqual(['VK_LAYER_MESA_device_select', 'VK_LAYER_OVERLAY_steam', 'VK_LAYER_KHRONOS_validation', 'VK_LAYER_LUNARG_api_dump']);
    expect(chain({ layers: { order: ['*api_dump', 'VK_LAYER_KHRONOS_*'] } }, req)).toEqual(['VK_LAYER_LUNARG_api_dump', 'VK_LAYER_KHRONOS_validation', 'VK_LAYER_MESA_device_select', 'VK_LAYER_OVERLAY_steam']);
    expect(chain({ layers: { order: ['VK_LAYER_NOT_THERE', '*steam'] } }, req)).toEqual(['VK_LAYER_OVERLAY_steam', 'VK_LAYER_MESA_device_select', 'VK_LAYER_KHRONOS_validation', 'VK_LAYER_LUNARG_api_dump']);
    const plan = loader({ layers: { order: ['*api_dump'] } }).planInstance({ enabledLayerNames: req });
    expect(plan.layers[0]?.reason).toBe('asked for by the application; placed by layers.order[0] ("*api_dump")');
  });

  it('VK-PO-7: a wrong policy option is an InvalidArgumentError naming it, before anything is loaded', () => {
    const bad: [unknown, RegExp][] = [
      [{ layers: 'x' }, /^options\.layers must be an object/],
      [{ layers: { enable: 'x' } }, /^options\.layers\.enable must be an array/],
      [{ layers: { disable: [''] } }, /^options\.layers\.disable\[0\] must be a non-empty name or glob without commas, got ""/],
      [{ layers: { allow: ['a,b'] } }, /^options\.layers\.allow\[0\]/],
      [{ layers: { order: ['~implicit~'] } }, /^options\.layers\.order\[0\] must be a layer name or glob/],
      [{ layers: { safe: 1 } }, /^options\.layers\.safe must be a boolean, got 1/],
      [{ layers: { enabled: [] } }, /^options\.layers\.enabled must be one of enable, disable, allow, order, safe/],
      [{ drivers: { select: [1] } }, /^options\.drivers\.select\[0\]/],
      [{ drivers: { only: [] } }, /^options\.drivers\.only/],
      [{ devices: { vendorIds: [-1] } }, /^options\.devices\.vendorIds\[0\] must be in \[0, 4294967295\], got -1/],
      [{ devices: { deviceIds: [[5, 2]] } }, /^options\.devices\.deviceIds\[0\]\[1\] must be in \[5, 4294967295\], got 2/],
      [{ devices: { select: { vendorId: 0x10de } } }, /^options\.devices\.select\.deviceId must be an integer/],
      [{ devices: { sort: 'no' } }, /^options\.devices\.sort must be a boolean/],
    ];
    for (const [options, message] of bad) {
      let thrown: unknown;
      try {
        createLoader({ platform: createFixturePlatform({ root: at() }), logWriter: () => {}, ...(options as object) });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, JSON.stringify(options)).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as InvalidArgumentError).code).toBe('KL_INVALID_ARGUMENT');
      expect((thrown as Error).message, JSON.stringify(options)).toMatch(message);
    }
  });
});

describe('Vulkan loader policy: drivers and devices', () => {
  function drivers(): void {
    put(at(), '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', vkDriverManifest('/usr/lib/libvulkan_lvp.so'));
    put(at(), '/usr/share/vulkan/icd.d/radeon_icd.x86_64.json', vkDriverManifest('/usr/lib/libvulkan_radeon.so'));
    put(at(), '/usr/share/vulkan/icd.d/nvidia_icd.json', vkDriverManifest('libGLX_nvidia.so.0'));
  }
  const selected = (options: Omit<VulkanDiscoveryOptions, 'platform'>, env: Record<string, string> = {}): string[] =>
    loader(options, env).planInstance().drivers.map((d) => d.manifestPath.split('/').pop() ?? '');

  it('VK-PO-5: drivers.select keeps only what it names, over VK_LOADER_DRIVERS_SELECT / DISABLE; drivers.disable takes out what select does not name', () => {
    drivers();
    expect(selected({})).toEqual(['lvp_icd.x86_64.json', 'nvidia_icd.json', 'radeon_icd.x86_64.json']);
    expect(selected({ drivers: { select: ['lvp_*'] } })).toEqual(['lvp_icd.x86_64.json']);
    expect(selected({ drivers: { disable: ['*x86_64*'] } })).toEqual(['nvidia_icd.json']);
    expect(selected({ drivers: { select: ['lvp_*', 'nvidia*'], disable: ['nvidia*', 'radeon*'] } })).toEqual(['lvp_icd.x86_64.json', 'nvidia_icd.json']);
    // After the environment: the code's select brings back what VK_LOADER_DRIVERS_DISABLE took out.
    expect(selected({}, { VK_LOADER_DRIVERS_DISABLE: 'lvp*' })).toEqual(['nvidia_icd.json', 'radeon_icd.x86_64.json']);
    expect(selected({ drivers: { select: ['lvp*'] } }, { VK_LOADER_DRIVERS_DISABLE: 'lvp*' })).toEqual(['lvp_icd.x86_64.json']);
    expect(selected({ drivers: { disable: ['radeon*'] } }, { VK_LOADER_DRIVERS_SELECT: 'radeon*' })).toEqual([]);
    const plan = loader({ drivers: { select: ['lvp*'] } }, { VK_LOADER_DRIVERS_DISABLE: 'lvp*' }).planInstance();
    expect(plan.drivers[0]?.reason).toBe('found via XDG_DATA_DIRS, selected by createLoader({ drivers: { select } }) ("lvp*"), over the environment');
    expect(plan.decisions).toContain('driver /usr/share/vulkan/icd.d/radeon_icd.x86_64.json not loaded: not selected by createLoader({ drivers: { select } })');
  });

  it('VK-PO-6: each devices field replaces its variable; the plan says whose each filter is', () => {
    drivers();
    const env = { VK_LOADER_DEVICE_SELECT: '1002:73bf', VK_LOADER_VENDOR_ID_FILTER: '0x1002', VK_LOADER_DISABLE_SELECT: '1' };
    const fromEnv = loader({}, env).planInstance();
    expect(fromEnv.deviceFilters).toEqual({ deviceSelect: { vendorId: 0x1002, deviceId: 0x73bf }, vendorIdRanges: [[0x1002, 0x1002]], disableSort: true });
    const plan = loader({ devices: { select: { vendorId: 0x10005, deviceId: 0 }, vendorIds: [0x10005, [0x1000, 0x10ff]], driverIds: [13], sort: true } }, env).planInstance();
    expect(plan.deviceFilters).toEqual({ deviceSelect: { vendorId: 0x10005, deviceId: 0 }, vendorIdRanges: [[0x10005, 0x10005], [0x1000, 0x10ff]], driverIdRanges: [[13, 13]] });
    expect(plan.decisions).toEqual(expect.arrayContaining([
      'devices: select from createLoader({ devices }), instead of VK_LOADER_DEVICE_SELECT',
      'devices: vendorIds from createLoader({ devices }), instead of VK_LOADER_VENDOR_ID_FILTER',
      'devices: driverIds from createLoader({ devices })',
      'devices: sorted by createLoader({ devices: { sort: true } }), instead of VK_LOADER_DISABLE_SELECT',
    ]));
    expect(loader({ devices: { sort: false } }).planInstance().deviceFilters).toEqual({ disableSort: true });
    expect(loader({ devices: { deviceIds: [7] } }, env).planInstance().decisions).toContain('devices: vendorIds from VK_LOADER_VENDOR_ID_FILTER');
  });
});

describe('the plan in khronos-loader info', () => {
  it('VK-PO-4: info vulkan prints the plan\'s decisions, each naming its rule', async () => {
    const { formatVulkanInfo } = await import('../../../lib/tools/cli/info-vulkan.js');
    fourLayers();
    const l = loader({ layers: { safe: true, order: ['*api_dump'] } }, { VK_INSTANCE_LAYERS: 'VK_LAYER_KHRONOS_validation:VK_LAYER_LUNARG_api_dump' });
    const text = formatVulkanInfo(l.discovery, undefined, l.planInstance().decisions);
    const section = text.slice(text.indexOf('Plan for an application asking for no layers (which rule decided each):'));
    expect(section.split('\n').slice(1, 7)).toEqual([
      `  env var 'VK_INSTANCE_LAYERS' defined and adding layers "VK_LAYER_KHRONOS_validation:VK_LAYER_LUNARG_api_dump"`,
      '  layer VK_LAYER_MESA_device_select not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name',
      '  layer VK_LAYER_OVERLAY_steam not loaded: safe mode (createLoader({ layers: { safe: true } })) loads no implicit layer the application does not name',
      `  layer 0 VK_LAYER_LUNARG_api_dump (/usr/lib/VK_LAYER_LUNARG_api_dump.so): named by VK_INSTANCE_LAYERS; placed by layers.order[0] ("*api_dump")`,
      `  layer 1 VK_LAYER_KHRONOS_validation (/usr/lib/VK_LAYER_KHRONOS_validation.so): named by VK_INSTANCE_LAYERS`,
      '',
    ]);
  });
});

// Fixture trees for Vulkan discovery tests: manifests written as the spec spells them. Temp trees
// and file writing are the same helpers the OpenXR tests use.
export { makeTempRoot, put } from '../openxr/fixtures.js';

export interface VkLayerSpec {
  name: string;
  library_path?: string;
  file_format_version?: string;
  type?: string;
  api_version?: string;
  implementation_version?: string;
  description?: string;
  instance_extensions?: { name: string; spec_version: string }[];
  device_extensions?: { name: string; spec_version: string; entrypoints?: string[] }[];
  enable_environment?: Record<string, string>;
  disable_environment?: Record<string, string>;
  component_layers?: string[];
  override_paths?: string[];
  blacklisted_layers?: string[];
  app_keys?: string[];
  functions?: Record<string, string>;
  pre_instance_functions?: Record<string, string>;
  library_arch?: string;
}

/** A layer manifest (one `layer`); fields left undefined are left out. */
export function vkLayerManifest(spec: VkLayerSpec): string {
  const { file_format_version = '1.2.1', ...rest } = spec;
  const layer: Record<string, unknown> = {
    type: 'GLOBAL',
    api_version: '1.3.0',
    implementation_version: '1',
    description: `${spec.name} (test)`,
    ...rest,
  };
  for (const k of Object.keys(layer)) if (layer[k] === undefined) delete layer[k];
  return JSON.stringify({ file_format_version, layer }, null, 2);
}

export function vkDriverManifest(libraryPath: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: libraryPath, api_version: '1.3.0', ...extra } }, null, 2);
}

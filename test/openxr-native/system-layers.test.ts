// The Debian LunarG layers (OpenXR 1.0.20 builds) in the chain above the test runtime: they
// negotiate with this loader, see the application's calls, and core_validation judges them.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingSystemComponent } from '../helpers/system.js';
import { OpenXrError } from '../../lib/openxr/errors.js';
import { createInstanceFromPlan, nativeInstanceOf } from '../../lib/openxr/api/instance.js';
import type { PlannedApiLayer } from '../../lib/openxr/plan/plan.js';
import { testPlan } from './helpers.js';
import { loadToolsAddon } from '../../lib/tools/native/addon.js';

const explicitDir = '/usr/share/openxr/1/api_layers/explicit.d';
const libDir = '/usr/lib/x86_64-linux-gnu/openxr/1/api_layers';
const components = {
  api_dump: [`${explicitDir}/XrApiLayer_api_dump.x86_64-linux-gnu.json`],
  core_validation: [`${explicitDir}/XrApiLayer_core_validation.x86_64-linux-gnu.json`],
};
const missing = missingSystemComponent(components);

function debianLayer(short: 'api_dump' | 'core_validation'): PlannedApiLayer {
  const manifestPath = components[short][0]!;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { api_layer: { name: string; library_path: string } };
  return {
    name: manifest.api_layer.name,
    kind: 'explicit',
    origin: 'application',
    manifestPath,
    libraryPath: manifest.api_layer.library_path.startsWith('/') ? manifest.api_layer.library_path : path.join(libDir, manifest.api_layer.library_path),
    libraryPathKind: 'absolute',
    negotiateFunctionName: 'xrNegotiateLoaderApiLayerInterface',
    reason: 'system test',
  };
}

function outputFile(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'kl-layer-out-')), 'out.txt');
}

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['XR_API_DUMP_FILE_NAME', 'XR_API_DUMP_EXPORT_TYPE', 'XR_CORE_VALIDATION_FILE_NAME', 'XR_CORE_VALIDATION_EXPORT_TYPE']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** A correct sequence: create, properties, a headless session with two spaces located, destroy. */
function correctSequence(layers: PlannedApiLayer[], applicationName: string) {
  const instance = createInstanceFromPlan({ ...testPlan(), apiLayers: layers }, {
    applicationName,
    enabledExtensionNames: ['XR_MND_headless', 'XR_EXT_debug_utils'],
  });
  instance.getProperties();
  loadToolsAddon().benchOpenXrLocateSpace(nativeInstanceOf(instance), 3, 1);
  instance.submitDebugUtilsMessage(0x1000, 1, 'a correct message');
  return instance;
}

describe.skipIf(missing !== null)('Debian XR_APILAYER_LUNARG layers in the chain', () => {
  it('XR-CI-3: api_dump above the test runtime shows the application\'s calls with their parameters', () => {
    const file = outputFile();
    process.env.XR_API_DUMP_EXPORT_TYPE = 'text';
    process.env.XR_API_DUMP_FILE_NAME = file;
    correctSequence([debianLayer('api_dump')], 'kl-api-dump-app').destroy();
    const dump = readFileSync(file, 'utf8');
    expect(dump).toMatch(/XrResult xrCreateInstance\n/);
    expect(dump).toContain('info->applicationInfo->applicationName = kl-api-dump-app');
    expect(dump).toContain('info->enabledExtensionNames[0] = XR_MND_headless');
    expect(dump).toMatch(/XrResult xrGetInstanceProperties\n/);
    expect(dump).toMatch(/XrResult xrCreateSession\n/);
    expect(dump).toMatch(/XrResult xrLocateSpace\n\s+XrSpace space = 0x[0-9a-f]+\n\s+XrSpace baseSpace = 0x[0-9a-f]+\n\s+XrTime time = 100[0-9]/);
    expect(dump).toMatch(/XrResult xrDestroyInstance\n/);
  });

  it('XR-CI-11: core_validation reports nothing for a correct sequence, and the error for a wrong call', () => {
    const file = outputFile();
    process.env.XR_CORE_VALIDATION_EXPORT_TYPE = 'text';
    process.env.XR_CORE_VALIDATION_FILE_NAME = file;
    const instance = correctSequence([debianLayer('core_validation')], 'kl-validation-app');
    expect(instance.apiLayerNames).toEqual(['XR_APILAYER_LUNARG_core_validation']);
    // Deliberately wrong, after the correct sequence: a message severity of 0.
    expect(() => instance.submitDebugUtilsMessage(0, 1, 'no severity')).toThrow(OpenXrError);
    instance.destroy();
    // The layer wrote its report (a missing file fails here), and its one error is the wrong
    // call's: the correct sequence before it was reported nothing.
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('VUID-xrSubmitDebugUtilsMessageEXT-messageSeverity-requiredbitmask');
    expect(report.match(/VALID_ERROR/g)?.length).toBe(1);
    expect(report.match(/VUID-[\w-]+/g)).toEqual(['VUID-xrSubmitDebugUtilsMessageEXT-messageSeverity-requiredbitmask']);
  });

  it('XR-LN-1: both 1.0.20 layers negotiate with this loader and stack in the requested order', () => {
    process.env.XR_API_DUMP_FILE_NAME = outputFile();
    process.env.XR_CORE_VALIDATION_FILE_NAME = outputFile();
    const layers = [debianLayer('api_dump'), debianLayer('core_validation')];
    const instance = correctSequence(layers, 'kl-both');
    expect(instance.apiLayerNames).toEqual(['XR_APILAYER_LUNARG_api_dump', 'XR_APILAYER_LUNARG_core_validation']);
    instance.destroy();
  });
});

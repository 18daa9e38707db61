// Ties the steps together: read both registries, select, emit every generated file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { OPENXR, VULKAN, type ApiConfig } from './apis.js';
import { dispatchCommands } from './commands.js';
import { emitPlatformTypesHeader, emitTypesHeaders, enumsHeaderName } from './ctypes.js';
import { emitOpenXrCommands, emitVulkanCommands } from './dispatch.js';
import { buildMarshalModel, vulkanScalar } from './marshal-model.js';
import { emitMarshalHeader, emitVulkanMarshalHeader } from './marshal-native.js';
import { emitCommandsModule, emitVulkanCommandsModule } from './marshal-ts.js';
import { buildVulkanMarshalModel } from './marshal-vulkan.js';
import { buildEncoderModel, emitEncoderHeader, emitEncoderModule } from './encoder-vulkan.js';
import { readRegistry, type ApiName } from './registry.js';
import { RegistrySelector, type Selection } from './select.js';
import { emitOpenXrModule, emitVulkanModule } from './typescript.js';
import { emitInteractionProfilesHeader, emitInteractionProfilesModule, readInteractionProfiles } from './interaction-profiles.js';
import { bannerText } from './apis.js';
import { emitWsiPlatformHeader } from './wsi-platform.js';

/** Output folders, relative to the output root (the repository root by default). */
export const NATIVE_DIR = path.join('native', 'generated');
export const TS_DIR = path.join('lib', 'generated');

export const API_CONFIGS: readonly ApiConfig[] = [OPENXR, VULKAN];

export interface GeneratedFile {
  /** Path relative to the output root, with forward slashes. */
  readonly path: string;
  readonly content: string;
}

function rel(dir: string, file: string): string {
  return path.join(dir, file).split(path.sep).join('/');
}

/** Reads and selects every API's registry; an API with a protected platform after the API it builds on. */
function selectAll(registryDir: string): Map<ApiName, Selection> {
  const selections = new Map<ApiName, Selection>();
  const ordered = [...API_CONFIGS].sort((a, b) => Number(a.protectedPlatform !== undefined) - Number(b.protectedPlatform !== undefined));
  for (const cfg of ordered) {
    const file = path.join(registryDir, cfg.registryFile);
    const registry = readRegistry(readFileSync(file, 'utf8'), cfg.registryFile, cfg.api);
    const platform = cfg.protectedPlatform;
    const foreign = platform === undefined ? undefined : selections.get(platform.foreignApi);
    if (platform !== undefined && foreign === undefined) throw new Error(`${cfg.title} needs the ${platform.foreignApi} selection first`);
    const protectedPlatform =
      platform === undefined || foreign === undefined
        ? undefined
        : {
            macro: platform.macro,
            requires: platform.requires,
            // The foreign header's types and the PFN_ types it declares for its commands.
            foreignTypes: new Set([...foreign.types, ...foreign.commands.map((c) => `PFN_${c.name}`)]),
          };
    selections.set(cfg.api, new RegistrySelector(registry, cfg.platformInclude, protectedPlatform).select());
  }
  return selections;
}

/** Renders every generated file from the registries in `registryDir`, without writing anything. */
export function renderAll(registryDir: string): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const selections = selectAll(registryDir);
  for (const cfg of API_CONFIGS) {
    const selection = selections.get(cfg.api);
    if (selection === undefined) throw new Error(`no selection for ${cfg.title}`);
    const commands = dispatchCommands(cfg, selection);
    const headers = emitTypesHeaders(cfg, selection);
    files.push({ path: rel(NATIVE_DIR, cfg.typesHeader), content: headers.types });
    files.push({ path: rel(NATIVE_DIR, enumsHeaderName(cfg)), content: headers.enums });
    if (cfg.protectedPlatform !== undefined) {
      const foreign = API_CONFIGS.find((c) => c.api === cfg.protectedPlatform?.foreignApi);
      if (foreign === undefined) throw new Error(`unknown API ${cfg.protectedPlatform.foreignApi}`);
      const content = emitPlatformTypesHeader(cfg, cfg.protectedPlatform, foreign, selection);
      files.push({ path: rel(NATIVE_DIR, cfg.protectedPlatform.header), content });
    }
    const dispatch = cfg.api === 'openxr' ? emitOpenXrCommands : emitVulkanCommands;
    files.push({ path: rel(NATIVE_DIR, cfg.commandsHeader), content: dispatch(cfg, selection, commands) });
    const ts = cfg.api === 'openxr' ? emitOpenXrModule : emitVulkanModule;
    files.push({ path: rel(TS_DIR, cfg.tsModule), content: ts(cfg, selection, commands) });
    if (cfg.api === 'openxr') {
      // The generated bindings: the marshal tables and their TypeScript types.
      const vulkan = selections.get('vulkan');
      const model = buildMarshalModel(selection, commands, vulkan === undefined ? undefined : (name) => vulkanScalar(vulkan.registry, name));
      files.push({ path: rel(NATIVE_DIR, 'openxr_marshal.h'), content: emitMarshalHeader(cfg, selection, model) });
      files.push({ path: rel(TS_DIR, 'openxr-commands.ts'), content: emitCommandsModule(cfg, selection, model) });
      // The interaction profile allowlist, for the typed API's messages and the simulated runtime.
      const profiles = readInteractionProfiles(readFileSync(path.join(registryDir, cfg.registryFile), 'utf8'), cfg.registryFile);
      const banner = bannerText(cfg, selection.registry);
      files.push({ path: rel(TS_DIR, 'openxr-interaction-profiles.ts'), content: emitInteractionProfilesModule(banner, profiles) });
      files.push({ path: rel(NATIVE_DIR, 'openxr_interaction_profiles.h'), content: emitInteractionProfilesHeader(banner, profiles) });
    } else {
      // The generated Vulkan bindings: the marshal tables and their TypeScript types.
      const model = buildVulkanMarshalModel(selection, commands);
      const header = emitVulkanMarshalHeader(cfg, selection, model);
      files.push({ path: rel(NATIVE_DIR, 'vulkan_marshal.h'), content: header.main });
      files.push({ path: rel(NATIVE_DIR, 'vulkan_marshal_structs.h'), content: header.structs });
      files.push({ path: rel(TS_DIR, 'vulkan-commands.ts'), content: emitVulkanCommandsModule(cfg, selection, model) });
      // The command encoder's opcodes for the vkCmd* commands among them.
      const encoder = buildEncoderModel(selection, model, commands);
      const banner = bannerText(cfg, selection.registry);
      files.push({ path: rel(NATIVE_DIR, 'vulkan_encoder.h'), content: emitEncoderHeader(banner, encoder) });
      files.push({ path: rel(TS_DIR, 'vulkan-encoder.ts'), content: emitEncoderModule(banner, encoder) });
      // The window-system surface extensions the loader implements (their platform types kept opaque).
      files.push({ path: rel(NATIVE_DIR, 'vulkan_wsi_platform.h'), content: emitWsiPlatformHeader(cfg, selection.registry) });
    }
  }
  return files;
}

export interface GenerateOptions {
  readonly registryDir: string;
  readonly outDir: string;
}

/** Renders and writes every generated file under `outDir`; returns what it wrote. */
export function generate(options: GenerateOptions): GeneratedFile[] {
  for (const cfg of API_CONFIGS) {
    const file = path.join(options.registryDir, cfg.registryFile);
    if (!existsSync(file)) throw new Error(`registry file not found: ${file}`);
  }
  const files = renderAll(options.registryDir);
  for (const f of files) {
    const target = path.join(options.outDir, f.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, f.content);
  }
  return files;
}

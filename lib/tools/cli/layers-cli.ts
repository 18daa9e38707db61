// `khronos-loader layers vulkan [--app <exe>] [--enable a,b] [--disable a,b] [--order a,b] [--reset] [--json]`:
// a headless vkconfig. It edits the user's loader settings file the loader reads: the first that
// exists of $XDG_CONFIG_HOME's, $XDG_DATA_HOME's, ~/.config's and ~/.local/share's
// vulkan/loader_settings.d/vk_loader_settings.json, in the Khronos loader 1.4.359's search order
// (settings-discovery.ts); with none, $XDG_DATA_HOME's (~/.local/share's when unset), where vkconfig
// writes it. Written whole or not at all, then it lists what the loader does with it: the file's
// entries and the chain an application (the global settings, or --app's) gets asking for no layers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage, runCommand, type CliIo } from './args.js';
import { UnavailableError } from '../../core/errors.js';
import { LAYERS_VULKAN } from './specs.js';
import { writeFileAtomic } from './atomic-write.js';
import { editLayerSettings, type LayerSettingsEdit } from './layer-settings.js';
import { dataHomeSettingsFile, userSettingsFileCandidates } from '../../vulkan/discovery/settings-discovery.js';

/** The settings file this command writes: the user's one in force, else the data-home one. */
export function userSettingsFile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const user = { home: env.HOME, configHome: env.XDG_CONFIG_HOME, dataHome: env.XDG_DATA_HOME };
  return userSettingsFileCandidates(user).find((f) => existsSync(f)) ?? dataHomeSettingsFile(user)[0];
}

const list = (v: string | undefined): string[] => (v === undefined ? [] : v.split(',').filter((x) => x !== ''));

interface LayersArgs extends LayerSettingsEdit {
  readonly json: boolean;
}

export function runLayersCli(args: readonly string[], io: CliIo): Promise<number> {
  return runCommand(
    LAYERS_VULKAN,
    args,
    io,
    (o): LayersArgs | string => {
      const app = o['--app'];
      if (app !== undefined && !path.isAbsolute(app)) return `--app needs an executable's absolute path (the Khronos loader compares app_keys with it), got ${JSON.stringify(app)}`;
      return { json: o['--json'] === true, reset: o['--reset'] === true, enable: list(o['--enable']), disable: list(o['--disable']), order: list(o['--order']), ...(app !== undefined ? { appKey: app } : {}) };
    },
    async (a) => {
      try {
        const [{ createHostPlatform }, { createLoader }] = await Promise.all([import('../../core/platform/host.js'), import('../../vulkan/loader.js')]);
        const env = io.env ?? process.env;
        const file = userSettingsFile(env);
        if (file === undefined) throw new UnavailableError('neither XDG_DATA_HOME nor HOME is set: there is no user configuration folder to write to');
        const host = createHostPlatform({ env });
        // Without --app, the global settings: no executable that an app_keys entry could name.
        const platform = { ...host, executablePath: a.appKey ?? '' };
        const quiet = { logWriter: () => {} };
        let written = false;
        if (a.reset || a.enable.length + a.disable.length + a.order.length > 0) {
          // The manifests as the loader finds them without any settings file.
          const found = createLoader({ platform, settingsFile: 'none', ...quiet }).discovery.layers;
          const existing = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : undefined;
          const edited = editLayerSettings(existing, a, (name) => found.find((l) => l.name === name));
          if ('error' in edited) {
            io.stderr(`khronos-loader layers vulkan: ${edited.error}; nothing written\n`);
            return 1;
          }
          writeFileAtomic(file, `${JSON.stringify(edited.json, null, 2)}\n`);
          written = true;
        }
        const loader = createLoader({ platform, ...quiet });
        const d = loader.discovery;
        const plan = loader.planInstance();
        const result = {
          file,
          written,
          settingsInForce: d.settingsFile === null ? null : { file: d.settingsFile.file, appliesTo: d.settingsFile.appliesTo, layers: d.settingsFile.layers ?? null },
          chain: plan.layers.map((l) => ({ name: l.name, kind: l.kind, manifestPath: l.manifestPath, reason: l.reason })),
          layers: d.layers.map((l) => ({ name: l.name, kind: l.kind, available: l.available, enabled: l.enabled, reason: l.reason })),
        };
        if (a.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
        else {
          const out = [`Settings file: ${file}${written ? ' (written)' : existsSync(file) ? '' : ' (none yet)'}`];
          const s = result.settingsInForce;
          out.push(`In force: ${s === null ? 'no settings file' : `${s.file} (settings for ${s.appliesTo})`}`);
          if (s?.layers) for (const e of s.layers) out.push(`  ${e.control === 'unordered_layer_location' ? '(the layers the file does not name)' : `${e.control.padEnd(4)} ${e.name}  ${e.path}`}`);
          out.push('', `Chain for ${a.appKey ?? 'any application'} asking for no layers (application side first):`);
          if (result.chain.length === 0) out.push('  none');
          result.chain.forEach((l, i) => out.push(`  ${i} ${l.name} (${l.kind}) — ${l.reason}`));
          out.push('', 'Layers:');
          for (const l of result.layers) out.push(`  ${l.name} (${l.kind}): ${!l.available ? 'UNAVAILABLE' : l.enabled ? 'ON' : 'off'} — ${l.reason}`);
          io.stdout(`${out.join('\n')}\n`);
        }
        return 0;
      } catch (error) {
        io.stderr(`khronos-loader layers vulkan failed: ${errorMessage(error)}\n`);
        return 1;
      }
    },
  );
}

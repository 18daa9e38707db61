// `khronos-loader layers vulkan`'s edit of a loader settings file (vk_loader_settings.json, the
// Khronos format: LoaderSettingsFile.md, as lib/vulkan/discovery/settings-file.ts reads it). Pure:
// the file's parsed JSON (or nothing) and the edit in, the new JSON out. Every other settings
// object, and every other member of the one edited, is kept as it was.

/** A layer the loader can find without the settings file: what an entry needs to name it. */
export interface KnownLayer {
  readonly name: string;
  readonly manifestPath: string;
  readonly kind: 'implicit' | 'explicit';
}

export interface LayerSettingsEdit {
  /** The executable whose settings object is edited (app_keys); undefined: the global one. */
  readonly appKey?: string;
  /** "on" entries, in this order, before the layers the file does not name. */
  readonly enable: readonly string[];
  /** "off" entries. */
  readonly disable: readonly string[];
  /** These first, in this order (entries made "auto" where the file has none). */
  readonly order: readonly string[];
  /** Drop the object's layer configuration before the rest of the edit. */
  readonly reset: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };
type Entry = JsonObject;

const UNORDERED: Entry = { control: 'unordered_layer_location' };

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The edited file's JSON, or the reason the edit cannot be made (a name no manifest has). */
export function editLayerSettings(existing: unknown, edit: LayerSettingsEdit, known: (name: string) => KnownLayer | undefined): { readonly json: JsonObject } | { readonly error: string } {
  const file: JsonObject = isObject(existing) ? { ...existing } : { file_format_version: '1.0.0' };
  if (typeof file['file_format_version'] !== 'string') file['file_format_version'] = '1.0.0';
  let array: Json[];
  if (Array.isArray(file['settings_array'])) array = [...file['settings_array']];
  else if (isObject(file['settings'])) array = [file['settings']];
  else array = [];
  delete file['settings'];
  const keysOf = (s: Json): Json[] | undefined => (isObject(s) && Array.isArray(s['app_keys']) ? s['app_keys'] : undefined);
  let index = edit.appKey === undefined ? array.findIndex((s) => isObject(s) && keysOf(s) === undefined) : array.findIndex((s) => keysOf(s)?.includes(edit.appKey as string) === true);
  if (index === -1) {
    // A new per-application object goes first (the first matching one applies); a global one last.
    const fresh: JsonObject = edit.appKey === undefined ? {} : { app_keys: [edit.appKey] };
    if (edit.appKey === undefined) index = array.push(fresh) - 1;
    else {
      array.unshift(fresh);
      index = 0;
    }
  }
  const target: JsonObject = { ...(array[index] as JsonObject) };
  let entries: Entry[] = !edit.reset && Array.isArray(target['layers']) ? target['layers'].filter(isObject).map((e) => ({ ...e })) : [];
  const touches = edit.enable.length + edit.disable.length + edit.order.length > 0;
  if (touches && entries.length === 0) entries = [{ ...UNORDERED }];
  const entryFor = (name: string): Entry | { error: string } => {
    const have = entries.find((e) => e['name'] === name);
    if (have) return have;
    const k = known(name);
    if (!k) return { error: `no layer named ${JSON.stringify(name)} is installed (a manifest in the standard folders or VK_LAYER_PATH)` };
    const e: Entry = { control: 'auto', name: k.name, path: k.manifestPath, treat_as_implicit_manifest: k.kind === 'implicit' };
    const marker = entries.findIndex((x) => x['control'] === 'unordered_layer_location');
    entries.splice(marker === -1 ? entries.length : marker, 0, e);
    return e;
  };
  for (const [names, control] of [[edit.enable, 'on'], [edit.disable, 'off']] as const) {
    for (const name of names) {
      const e = entryFor(name);
      if ('error' in e) return { error: e.error as string };
      e['control'] = control;
    }
  }
  if (edit.order.length > 0) {
    const first: Entry[] = [];
    for (const name of edit.order) {
      const e = entryFor(name);
      if ('error' in e) return { error: e.error as string };
      if (!first.includes(e)) first.push(e);
    }
    entries = [...first, ...entries.filter((e) => !first.includes(e))];
  }
  if (entries.length > 0) target['layers'] = entries;
  else delete target['layers'];
  const meaningful = Object.keys(target).some((k) => k !== 'app_keys');
  if (meaningful) array[index] = target;
  else array.splice(index, 1);
  file['settings_array'] = array;
  return { json: file };
}

// The OpenXR specification's interaction profile allowlist (xr.xml <interaction_profiles>, and the
// <require> blocks of features and extensions that name or extend a profile), emitted for the
// typed API (which path of a refused suggestBindings() call is at fault) and for the simulated
// runtime (xrSuggestInteractionProfileBindings answers XR_ERROR_PATH_UNSUPPORTED for a profile or
// binding path the allowlist does not have).
import type { Element } from '@xmldom/xmldom';
import { attr, children, descendants, parseXml } from './xml.js';

export interface ProfileComponent {
  readonly subpath: string;
  /** Only under this top-level user path (undefined: under every one of the profile's). */
  readonly userPath: string | undefined;
  /** The feature or extension that adds it (undefined: the profile's own). */
  readonly addedBy: string | undefined;
}

export interface InteractionProfile {
  readonly path: string;
  readonly title: string;
  /** The features (XR_VERSION_1_0, ...) and extensions that provide the profile. */
  readonly requiredBy: readonly string[];
  readonly userPaths: readonly string[];
  readonly components: readonly ProfileComponent[];
}

function componentsOf(el: Element, addedBy: string | undefined): ProfileComponent[] {
  return children(el, 'component').map((c) => ({ subpath: attr(c, 'subpath') ?? '', userPath: attr(c, 'user_path'), addedBy }));
}

/** Every interaction profile of the registry, in registry order. */
export function readInteractionProfiles(xmlText: string, fileName: string): InteractionProfile[] {
  const root = parseXml(xmlText, fileName);
  const section = children(root, 'interaction_profiles')[0];
  if (section === undefined) throw new Error(`${fileName} has no <interaction_profiles>`);
  const profiles = new Map<string, { title: string; requiredBy: string[]; userPaths: string[]; components: ProfileComponent[] }>();
  for (const p of children(section, 'interaction_profile')) {
    const path = attr(p, 'name');
    if (path === undefined) throw new Error(`${fileName}: an <interaction_profile> without a name`);
    profiles.set(path, {
      title: attr(p, 'title') ?? '',
      requiredBy: [],
      userPaths: children(p, 'user_path').map((u) => attr(u, 'path') ?? ''),
      components: componentsOf(p, undefined),
    });
  }
  const providers = [...children(root, 'feature'), ...children(children(root, 'extensions')[0] ?? root, 'extension')];
  for (const provider of providers) {
    const name = attr(provider, 'name') ?? '';
    for (const require of children(provider, 'require')) {
      for (const named of children(require, 'interaction_profile')) profiles.get(attr(named, 'name') ?? '')?.requiredBy.push(name);
      for (const extend of descendants(require, 'extend')) {
        const target = profiles.get(attr(extend, 'interaction_profile_path') ?? '');
        if (target !== undefined) target.components.push(...componentsOf(extend, name));
      }
    }
  }
  return [...profiles].map(([path, p]) => ({ path, ...p }));
}

function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function c(s: string): string {
  return JSON.stringify(s);
}

/** lib/generated/openxr-interaction-profiles.ts */
export function emitInteractionProfilesModule(banner: string, profiles: readonly InteractionProfile[]): string {
  const out = [
    `// ${banner}`,
    "// The OpenXR specification's interaction profiles: what xrSuggestInteractionProfileBindings accepts.",
    '',
    'export interface XrInteractionProfileComponent {',
    '  readonly subpath: string;',
    '  /** Only under this top-level user path (absent: under each of the profile\'s). */',
    '  readonly userPath?: string;',
    '  /** The feature or extension that adds it (absent: the profile\'s own). */',
    '  readonly addedBy?: string;',
    '}',
    '',
    'export interface XrInteractionProfile {',
    '  readonly title: string;',
    '  /** The features (XR_VERSION_1_0, ...) and extensions that provide it. */',
    '  readonly requiredBy: readonly string[];',
    '  readonly userPaths: readonly string[];',
    '  readonly components: readonly XrInteractionProfileComponent[];',
    '}',
    '',
    '/** Every interaction profile of the registry, by path. */',
    'export const XR_INTERACTION_PROFILES: Readonly<Record<string, XrInteractionProfile>> = {',
  ];
  for (const p of profiles) {
    out.push(`  ${q(p.path)}: {`);
    out.push(`    title: ${q(p.title)},`);
    out.push(`    requiredBy: [${p.requiredBy.map(q).join(', ')}],`);
    out.push(`    userPaths: [${p.userPaths.map(q).join(', ')}],`);
    out.push('    components: [');
    for (const k of p.components) {
      const fields = [`subpath: ${q(k.subpath)}`];
      if (k.userPath !== undefined) fields.push(`userPath: ${q(k.userPath)}`);
      if (k.addedBy !== undefined) fields.push(`addedBy: ${q(k.addedBy)}`);
      out.push(`      { ${fields.join(', ')} },`);
    }
    out.push('    ],');
    out.push('  },');
  }
  out.push('};', '');
  return out.join('\n');
}

/** native/generated/openxr_interaction_profiles.h */
export function emitInteractionProfilesHeader(banner: string, profiles: readonly InteractionProfile[]): string {
  const out = [
    `/* ${banner} */`,
    "/* The OpenXR specification's interaction profiles: what xrSuggestInteractionProfileBindings accepts. */",
    '#ifndef KHRONOS_LOADER_GENERATED_OPENXR_INTERACTION_PROFILES_H_',
    '#define KHRONOS_LOADER_GENERATED_OPENXR_INTERACTION_PROFILES_H_ 1',
    '',
    '#include <span>',
    '#include <string_view>',
    '',
    'namespace kl::generated::xr {',
    '',
    'struct InteractionProfileComponent {',
    '  std::string_view subpath;',
    '  std::string_view userPath;  // empty: under each of the profile\'s user paths',
    '  std::string_view addedBy;   // empty: the profile\'s own; else the feature or extension that adds it',
    '};',
    '',
    'struct InteractionProfile {',
    '  std::string_view path;',
    '  std::span<const std::string_view> requiredBy;  // features (XR_VERSION_1_0, ...) and extensions',
    '  std::span<const std::string_view> userPaths;',
    '  std::span<const InteractionProfileComponent> components;',
    '};',
    '',
    'namespace interaction_profile_data {',
  ];
  profiles.forEach((p, i) => {
    out.push(`inline constexpr std::string_view kRequiredBy${i}[] = {${p.requiredBy.map(c).join(', ')}};`);
    out.push(`inline constexpr std::string_view kUserPaths${i}[] = {${p.userPaths.map(c).join(', ')}};`);
    out.push(`inline constexpr InteractionProfileComponent kComponents${i}[] = {`);
    for (const k of p.components) out.push(`    {${c(k.subpath)}, ${c(k.userPath ?? '')}, ${c(k.addedBy ?? '')}},`);
    out.push('};');
  });
  out.push('}  // namespace interaction_profile_data', '');
  out.push('inline constexpr InteractionProfile kInteractionProfiles[] = {');
  profiles.forEach((p, i) => {
    const d = 'interaction_profile_data::';
    out.push(`    {${c(p.path)}, ${d}kRequiredBy${i}, ${d}kUserPaths${i}, ${d}kComponents${i}},`);
  });
  out.push('};', '', '}  // namespace kl::generated::xr', '', '#endif', '');
  return out.join('\n');
}

// Shared by both APIs: the Vulkan filter variables and the loader policy in code (docs/usage.md, "Loader policy in code").
// VK-LF-5: the Khronos loader's filter globs (loader_environment.c, determine_filter_type and
// check_name_matches_filter_environment_var). A filter variable is a comma-separated list; each
// entry is lower-cased and is one of:
//   "name"      the whole name, nothing more
//   "name*"     a prefix      "*name"  a suffix      "*name*"  a substring
//   "*" / "**"  everything (and, for the layer disable variable, "~all~")
//   "~implicit~" / "~explicit~"  (layer disable variable only) every implicit / explicit layer
// Names are compared without regard to ASCII case. A '*' anywhere else is an ordinary character.
// Empty entries (",,") are skipped, as strtok skips them.

export type NameGlobKind = 'everything' | 'fullname' | 'prefix' | 'suffix' | 'substring' | 'special';

export interface NameGlob {
  readonly kind: NameGlobKind;
  /** Lower-cased, without the '*' that made it a prefix/suffix/substring. */
  readonly text: string;
}

export interface NameFilter {
  readonly globs: readonly NameGlob[];
}

/** The Khronos loader keeps at most this many entries per variable (MAX_ADDITIONAL_FILTERS). */
export const MAX_FILTER_ENTRIES = 16;
/** A stored entry is cut to VK_MAX_EXTENSION_NAME_SIZE - 1 bytes. */
const MAX_ENTRY_LENGTH = 255;

function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

export function classifyGlob(entry: string): NameGlob {
  if (entry.startsWith('~')) return { kind: 'special', text: entry };
  if (entry === '*' || entry === '**') return { kind: 'everything', text: entry };
  const starBegin = entry.startsWith('*');
  const starEnd = entry.endsWith('*');
  let kind: NameGlobKind = 'fullname';
  let text = entry;
  if (starBegin && starEnd) {
    kind = 'substring';
    text = entry.slice(1, -1);
  } else if (starBegin) {
    kind = 'suffix';
    text = entry.slice(1);
  } else if (starEnd) {
    kind = 'prefix';
    text = entry.slice(0, -1);
  }
  return { kind, text: text.slice(0, MAX_ENTRY_LENGTH) };
}

/** Splits and classifies a filter variable's value (undefined or '' → no filter). */
export function parseNameFilter(value: string | undefined): NameFilter {
  if (!value) return { globs: [] };
  const globs: NameGlob[] = [];
  for (const entry of asciiLower(value).split(',')) {
    if (entry === '') continue;
    globs.push(classifyGlob(entry));
    if (globs.length >= MAX_FILTER_ENTRIES) break;
  }
  return { globs };
}

function globMatches(glob: NameGlob, lowerName: string): boolean {
  if (glob.text.length > lowerName.length) return false;
  switch (glob.kind) {
    case 'everything':
      return true;
    case 'special':
      return glob.text === '~all~';
    case 'fullname':
      return lowerName === glob.text;
    case 'prefix':
      return lowerName.startsWith(glob.text);
    case 'suffix':
      return lowerName.endsWith(glob.text);
    case 'substring':
      return lowerName.includes(glob.text);
  }
}

export function nameMatchesFilter(name: string, filter: NameFilter): boolean {
  if (filter.globs.length === 0) return false;
  const lower = asciiLower(name);
  return filter.globs.some((g) => globMatches(g, lower));
}

/** VK_LOADER_LAYERS_DISABLE: the globs plus the three special words. */
export interface LayerDisableFilter {
  readonly all: boolean;
  readonly implicit: boolean;
  readonly explicit: boolean;
  readonly names: NameFilter;
}

export function parseLayerDisableFilter(value: string | undefined): LayerDisableFilter {
  let all = false;
  let implicit = false;
  let explicit = false;
  const globs: NameGlob[] = [];
  if (value) {
    for (const entry of asciiLower(value).split(',')) {
      if (entry === '') continue;
      const glob = classifyGlob(entry);
      if (glob.kind === 'special' || glob.kind === 'everything') {
        if (entry === '~all~' || entry === '*' || entry === '**') all = true;
        else if (entry === '~implicit~') implicit = true;
        else if (entry === '~explicit~') explicit = true;
        continue;
      }
      globs.push(glob);
      if (globs.length >= MAX_FILTER_ENTRIES) break;
    }
  }
  return { all, implicit, explicit, names: { globs } };
}

/** Whether the disable filter covers a layer of this name and kind. */
export function layerDisabledByFilter(name: string, kind: 'implicit' | 'explicit', filter: LayerDisableFilter): boolean {
  if (filter.all) return true;
  if (kind === 'implicit' ? filter.implicit : filter.explicit) return true;
  return nameMatchesFilter(name, filter.names);
}

/** A filter from a list of globs, one per entry (the loader policy in code); no entry limit. */
export function nameFilterFromGlobs(entries: readonly string[]): NameFilter {
  return { globs: entries.map((e) => classifyGlob(asciiLower(e))) };
}

/** A layer disable filter from a list of globs, one per entry, with the three special words. */
export function layerDisableFilterFromGlobs(entries: readonly string[]): LayerDisableFilter {
  const lower = entries.map(asciiLower);
  const special = (w: string): boolean => lower.includes(w);
  return {
    all: special('~all~') || special('*') || special('**'),
    implicit: special('~implicit~'),
    explicit: special('~explicit~'),
    names: { globs: lower.filter((e) => !e.startsWith('~') && e !== '*' && e !== '**').map(classifyGlob) },
  };
}

/** The first glob of `filter` that `name` matches, as written (lower-cased), for a plan's reasons. */
export function matchingGlob(name: string, filter: NameFilter): string | undefined {
  const lower = asciiLower(name);
  const g = filter.globs.find((x) => globMatches(x, lower));
  if (g === undefined) return undefined;
  switch (g.kind) {
    case 'prefix':
      return `${g.text}*`;
    case 'suffix':
      return `*${g.text}`;
    case 'substring':
      return `*${g.text}*`;
    default:
      return g.text;
  }
}

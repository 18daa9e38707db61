// Reads a Khronos registry (xr.xml or vk.xml) into a plain model, keeping only what applies to
// one API (`api` attributes name the APIs an element belongs to; vk.xml also describes Vulkan SC).
import type { Element } from '@xmldom/xmldom';
import { attr, child, children, codeText, descendants, oneLine, parseXml } from './xml.js';

export type ApiName = 'openxr' | 'vulkan';

/** A struct member or a command/function-pointer parameter. */
export interface Declaration {
  /** The whole C declaration on one line, e.g. `const char* const* enabledExtensionNames`. */
  readonly text: string;
  /** The name of the declared member or parameter. */
  readonly name: string;
  /** The registry type it is declared with (`uint32_t`, `XrPosef`, ...). */
  readonly typeName: string;
  /** True when the declaration holds the type itself (not a pointer to it), so the type must be complete. */
  readonly byValue: boolean;
  /** The registry's `len` (a member or parameter name, `null-terminated`, or both comma-separated). */
  readonly len: string | undefined;
  /** The registry's `optional` (`true`, or per pointer level `true,false`). */
  readonly optional: string | undefined;
  /** For a `type` member: the XrStructureType value the structure must carry. */
  readonly values: string | undefined;
  /** Fixed array sizes written after the name (`[XR_MAX_SYSTEM_NAME_SIZE]`, `[4]`), outermost first. */
  readonly arraySizes: readonly string[];
  /** The registry's `altlen`: a C expression of the length where `len` is LaTeX (`codeSize / 4`). */
  readonly altlen?: string | undefined;
  /** A C bit-field width (`uint32_t mask:8`), when the member is one. */
  readonly bitfield?: number | undefined;
}

export interface RegistryType {
  readonly name: string;
  /** '' for C base types and foreign types, which have no category. */
  readonly category: string;
  readonly requires: string | undefined;
  readonly alias: string | undefined;
  readonly bitvalues: string | undefined;
  readonly protect: string | undefined;
  readonly mayAlias: boolean;
  /** Members of a struct or union; parameters of a function pointer written as proto/param. */
  readonly members: readonly Declaration[];
  /** For function pointers written as proto/param: the return type text. */
  readonly returnType: string | undefined;
  /** The element's C text (defines, basetypes, handles, bitmasks, text-form function pointers). */
  readonly text: string;
  /** Names of the types and enum groups this type mentions, in order, without duplicates. */
  readonly deps: readonly string[];
  /** Position in the registry, for stable ordering. */
  readonly order: number;
  /** Structures whose `next` chain this structure may extend (`structextends`). */
  readonly structExtends: readonly string[];
  /** Written only by the runtime (`returnedonly="true"`). */
  readonly returnedOnly: boolean;
  /** The base header structure this one specializes (`parentstruct`). */
  readonly parentStruct: string | undefined;
  /** For a handle: the handle type(s) it is created from (`parent`, comma-separated in the registry). */
  readonly parent?: string | undefined;
}

/** One `<enum>` as written in the registry, in an `<enums>` group or a `<require>`. */
export interface RawEnum {
  readonly name: string;
  readonly value: string | undefined;
  readonly bitpos: number | undefined;
  readonly alias: string | undefined;
  readonly offset: number | undefined;
  readonly extnumber: number | undefined;
  readonly negative: boolean;
  readonly extends: string | undefined;
  readonly protect: string | undefined;
  /** The C type of an API constant (`uint32_t`, `float`...), when the registry gives one. */
  readonly type: string | undefined;
}

export interface EnumGroup {
  readonly name: string;
  readonly kind: 'enum' | 'bitmask' | 'constants';
  readonly bitwidth: 32 | 64;
  readonly values: readonly RawEnum[];
}

export interface Command {
  readonly name: string;
  readonly alias: string | undefined;
  readonly returnType: string;
  readonly params: readonly Declaration[];
  readonly protect: string | undefined;
  /** The XrResult / VkResult values that mean success (`successcodes`). */
  readonly successCodes: readonly string[];
  /** Vulkan command buffer commands: where they may be recorded (`renderpass`: inside, outside, both). */
  readonly renderPass?: string | undefined;
}

export interface RequireBlock {
  readonly depends: string | undefined;
  readonly types: readonly string[];
  readonly enums: readonly RawEnum[];
  readonly commands: readonly string[];
}

export interface Feature {
  readonly name: string;
  readonly number: string;
  /** Vulkan splits each version into internal base/compute/graphics features. */
  readonly internal: boolean;
  readonly depends: string | undefined;
  readonly requires: readonly RequireBlock[];
}

export interface Extension {
  readonly name: string;
  readonly number: number;
  readonly type: string | undefined;
  readonly supported: boolean;
  readonly platform: string | undefined;
  readonly protect: string | undefined;
  readonly depends: string | undefined;
  readonly provisional: boolean;
  readonly promotedTo: string | undefined;
  readonly deprecatedBy: string | undefined;
  readonly obsoletedBy: string | undefined;
  readonly requires: readonly RequireBlock[];
}

export interface Registry {
  readonly api: ApiName;
  readonly fileName: string;
  readonly types: ReadonlyMap<string, RegistryType>;
  readonly enumGroups: ReadonlyMap<string, EnumGroup>;
  readonly commands: ReadonlyMap<string, Command>;
  readonly features: readonly Feature[];
  readonly extensions: readonly Extension[];
  /** Vendor tags (KHR, EXT, FB...), longest first so suffix matching takes the longest. */
  readonly tags: readonly string[];
}

/** True when an element with this `api` attribute belongs to the API (no attribute: all APIs). */
function forApi(el: Element, api: ApiName): boolean {
  const list = attr(el, 'api');
  return list === undefined || list.split(',').includes(api);
}

function optionalInt(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number.parseInt(text, 10);
}

function readDeclaration(el: Element): Declaration {
  const text = oneLine(codeText(el));
  const nameEl = child(el, 'name');
  const typeEl = child(el, 'type');
  if (nameEl === undefined || typeEl === undefined) {
    throw new Error(`declaration without <name> or <type>: ${text}`);
  }
  const name = codeText(nameEl).trim();
  const afterName = text.slice(text.lastIndexOf(name) + name.length);
  return {
    text,
    name,
    typeName: codeText(typeEl).trim(),
    byValue: !text.includes('*'),
    len: attr(el, 'len'),
    optional: attr(el, 'optional'),
    values: attr(el, 'values'),
    arraySizes: [...afterName.matchAll(/\[\s*([A-Za-z0-9_]+)\s*\]/g)].map((m) => m[1] ?? ''),
    altlen: attr(el, 'altlen'),
    bitfield: /:\s*(\d+)\s*$/.test(afterName) ? Number(/:\s*(\d+)\s*$/.exec(afterName)?.[1]) : undefined,
  };
}

function readEnum(el: Element): RawEnum {
  const name = attr(el, 'name');
  if (name === undefined) throw new Error('<enum> without a name');
  const bitpos = attr(el, 'bitpos');
  return {
    name,
    value: attr(el, 'value'),
    bitpos: optionalInt(bitpos),
    alias: attr(el, 'alias'),
    offset: optionalInt(attr(el, 'offset')),
    extnumber: optionalInt(attr(el, 'extnumber')),
    negative: attr(el, 'dir') === '-',
    extends: attr(el, 'extends'),
    protect: attr(el, 'protect'),
    type: attr(el, 'type'),
  };
}

function pushUnique(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

function readType(el: Element, api: ApiName, order: number): RegistryType | undefined {
  const nameEl = child(el, 'name') ?? child(el, 'proto')?.getElementsByTagName('name')[0];
  const name = attr(el, 'name') ?? (nameEl === undefined ? undefined : codeText(nameEl).trim());
  if (name === undefined) return undefined;
  const category = attr(el, 'category') ?? '';
  const deps: string[] = [];
  let members: Declaration[] = [];
  let returnType: string | undefined;
  const proto = child(el, 'proto');
  if (category === 'struct' || category === 'union') {
    members = children(el, 'member')
      .filter((m) => forApi(m, api))
      .map(readDeclaration);
    for (const m of members) pushUnique(deps, m.typeName);
  } else if (category === 'funcpointer' && proto !== undefined) {
    const protoText = oneLine(codeText(proto));
    returnType = protoText.slice(0, protoText.lastIndexOf(name)).trim();
    const retType = child(proto, 'type');
    if (retType !== undefined) pushUnique(deps, codeText(retType).trim());
    members = children(el, 'param')
      .filter((p) => forApi(p, api))
      .map(readDeclaration);
    for (const m of members) pushUnique(deps, m.typeName);
  } else {
    for (const t of descendants(el, 'type')) pushUnique(deps, codeText(t).trim());
  }
  const requires = attr(el, 'requires');
  const bitvalues = attr(el, 'bitvalues');
  const alias = attr(el, 'alias');
  for (const extra of [requires, bitvalues, alias]) {
    if (extra !== undefined) pushUnique(deps, extra);
  }
  return {
    name,
    category,
    requires,
    alias,
    bitvalues,
    protect: attr(el, 'protect'),
    mayAlias: attr(el, 'mayalias') === 'true',
    members,
    returnType,
    text: codeText(el),
    deps: deps.filter((d) => d !== name),
    order,
    structExtends: (attr(el, 'structextends') ?? '').split(',').filter((n) => n !== ''),
    returnedOnly: attr(el, 'returnedonly') === 'true',
    parentStruct: attr(el, 'parentstruct'),
    parent: attr(el, 'parent'),
  };
}

function readCommand(el: Element, api: ApiName): Command | undefined {
  const alias = attr(el, 'alias');
  if (alias !== undefined) {
    const name = attr(el, 'name');
    if (name === undefined) throw new Error('command alias without a name');
    return { name, alias, returnType: '', params: [], protect: attr(el, 'protect'), successCodes: [] };
  }
  const proto = child(el, 'proto');
  const nameEl = proto === undefined ? undefined : child(proto, 'name');
  if (proto === undefined || nameEl === undefined) throw new Error('<command> without <proto>/<name>');
  const name = codeText(nameEl).trim();
  const protoText = oneLine(codeText(proto));
  return {
    name,
    alias: undefined,
    returnType: protoText.slice(0, protoText.lastIndexOf(name)).trim(),
    params: children(el, 'param')
      .filter((p) => forApi(p, api))
      .map(readDeclaration),
    protect: attr(el, 'protect'),
    successCodes: (attr(el, 'successcodes') ?? '').split(',').filter((n) => n !== ''),
    renderPass: attr(el, 'renderpass'),
  };
}

function readRequires(el: Element, api: ApiName): RequireBlock[] {
  return children(el, 'require')
    .filter((r) => forApi(r, api))
    .map((r) => ({
      depends: attr(r, 'depends'),
      types: children(r, 'type').map((t) => attr(t, 'name') ?? ''),
      enums: children(r, 'enum')
        .filter((e) => forApi(e, api))
        .map(readEnum),
      commands: children(r, 'command').map((c) => attr(c, 'name') ?? ''),
    }));
}

export function readRegistry(xmlText: string, fileName: string, api: ApiName): Registry {
  const root = parseXml(xmlText, fileName);
  const types = new Map<string, RegistryType>();
  const enumGroups = new Map<string, EnumGroup>();
  const commands = new Map<string, Command>();
  const features: Feature[] = [];
  const extensions: Extension[] = [];
  const tags: string[] = [];
  let order = 0;

  for (const section of children(root)) {
    switch (section.tagName) {
      case 'tags':
        for (const t of children(section, 'tag')) tags.push(attr(t, 'name') ?? '');
        break;
      case 'types':
        for (const t of children(section, 'type')) {
          if (!forApi(t, api)) continue;
          const type = readType(t, api, order++);
          if (type === undefined) continue;
          // The first definition wins: later ones only repeat a name for another API.
          if (!types.has(type.name)) types.set(type.name, type);
        }
        break;
      case 'enums': {
        const name = attr(section, 'name') ?? '';
        const kindAttr = attr(section, 'type');
        const kind = kindAttr === 'enum' || kindAttr === 'bitmask' ? kindAttr : 'constants';
        enumGroups.set(name, {
          name,
          kind,
          bitwidth: attr(section, 'bitwidth') === '64' ? 64 : 32,
          values: children(section, 'enum')
            .filter((e) => forApi(e, api))
            .map(readEnum),
        });
        break;
      }
      case 'commands':
        for (const c of children(section, 'command')) {
          if (!forApi(c, api)) continue;
          const cmd = readCommand(c, api);
          if (cmd !== undefined && !commands.has(cmd.name)) commands.set(cmd.name, cmd);
        }
        break;
      case 'feature':
        if (!forApi(section, api)) break;
        features.push({
          name: attr(section, 'name') ?? '',
          number: attr(section, 'number') ?? '',
          internal: attr(section, 'apitype') === 'internal',
          depends: attr(section, 'depends'),
          requires: readRequires(section, api),
        });
        break;
      case 'extensions':
        for (const e of children(section, 'extension')) {
          const supported = (attr(e, 'supported') ?? '').split(',').includes(api);
          extensions.push({
            name: attr(e, 'name') ?? '',
            number: Number.parseInt(attr(e, 'number') ?? '0', 10),
            type: attr(e, 'type'),
            supported,
            platform: attr(e, 'platform'),
            protect: attr(e, 'protect'),
            depends: attr(e, 'depends'),
            provisional: attr(e, 'provisional') === 'true',
            promotedTo: attr(e, 'promotedto'),
            deprecatedBy: attr(e, 'deprecatedby'),
            obsoletedBy: attr(e, 'obsoletedby'),
            requires: supported ? readRequires(e, api) : [],
          });
        }
        break;
      default:
        break;
    }
  }
  tags.sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  return { api, fileName, types, enumGroups, commands, features, extensions, tags };
}

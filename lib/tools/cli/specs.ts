// Every khronos-loader command's table: its options, their value kinds and help, what it does and
// what its exit codes mean. The parser, the --help texts and the argument errors all come from
// here (args.ts), so every command speaks the same language. Light on purpose: nothing here loads
// the native addon or a command's own modules.
import { BUNDLED_RUNTIME_KEYWORD } from '../doctor/openxr/no-runtime.js';
import { BENCH_COMMANDS } from '../bench/openxr-commands.js';
import { FRAME_BENCH_API_VERSIONS, FRAME_BENCH_SPACE_COUNTS } from '../bench/frame-spaces.js';
import { VULKAN_BENCH_COMMAND_NAMES } from '../bench/vulkan-child-protocol.js';
import { RECORD_COMMAND } from '../bench/vulkan-record-protocol.js';
import type { CommandSpec } from './args.js';

/** What --runtime takes, for its errors. */
export const RUNTIME_OPTION_NEED = `"${BUNDLED_RUNTIME_KEYWORD}" (the runtime bundled with khronos-loader), a runtime name that \`khronos-loader runtimes\` lists, or a runtime manifest path`;

const runtimeOption = (instead: string) =>
  ({
    name: '--runtime',
    kind: 'text',
    value: '<name|manifest>',
    need: RUNTIME_OPTION_NEED,
    help: `${instead}: "${BUNDLED_RUNTIME_KEYWORD}" for the runtime bundled with khronos-loader, a name that \`khronos-loader runtimes\` lists, or a runtime manifest path (e.g. Monado's)`,
  }) as const;

const json = (what: string) => ({ name: '--json', kind: 'switch', help: `${what} as JSON` }) as const;

const timeout = (what: string) =>
  ({ name: '--timeout', kind: 'positive-number', value: '<ms>', need: 'a number of milliseconds greater than 0', help: `how long ${what} may take, in milliseconds (default 5000)` }) as const;

const USAGE_EXIT = '2 for a wrong argument (one line on stderr names it, what it needs and what it got).';

export const INFO_OPENXR = {
  name: 'info openxr',
  summary: 'the active OpenXR runtime (or the one --runtime names), every API layer found, every problem',
  description:
    'What OpenXR discovery finds and decides: the active runtime and why, every implicit and explicit API layer (manifest, library, versions, on or off and why) and every problem. ' +
    'With --runtime, what an application that chooses that runtime gets instead of the active one. Only manifests are read; nothing is loaded.',
  options: [json('the discovery result'), runtimeOption('show what an application choosing this runtime gets')],
  exitCodes: `0 when discovery ran (problems are in the report), 1 when it failed, ${USAGE_EXIT}`,
  examples: ['khronos-loader info openxr', `khronos-loader info openxr --runtime ${BUNDLED_RUNTIME_KEYWORD}`, 'khronos-loader info openxr --json'],
} as const satisfies CommandSpec;

export const INFO_VULKAN = {
  name: 'info vulkan',
  summary: 'the Vulkan drivers, every layer, the loader settings file in force, every problem',
  description:
    'What Vulkan discovery finds and decides: every driver (selected or not, and why), every implicit and explicit layer (kind, manifest, library, versions, on or off and why, meta layer components), ' +
    "the loader settings file in force, which libvulkan.so.1 this process holds, and every problem. Only manifests are read; nothing is loaded.",
  options: [json('the discovery result')],
  exitCodes: `0 when discovery ran (problems are in the report), 1 when it failed, ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

export const RUNTIMES = {
  name: 'runtimes',
  summary: 'every OpenXR runtime installed (the active one marked) and the bundled simulated one; --check loads each',
  description:
    'Lists every OpenXR runtime installed: on Linux the runtime manifests in the openxr/1 folders of the XDG configuration and data folders, on Windows the AvailableRuntimes registry values, and XR_RUNTIME_JSON; ' +
    'the active one is marked, with why, and each one\'s problems. The simulated runtime bundled with khronos-loader is listed apart, as bundled: it is not installed, and needs no installing.\n\n' +
    `Any runtime listed can be used without changing the active one: --runtime '<name>' on demo, info openxr and bench openxr (--runtime ${BUNDLED_RUNTIME_KEYWORD} for the bundled one).`,
  options: [
    { name: '--check', kind: 'switch', help: 'also load and negotiate each runtime in a child process of its own and create an instance on it: its own name, version and extensions, or what is wrong' },
    { name: '--all', kind: 'switch', help: 'Windows: also the runtimes whose AvailableRuntimes value disables them' },
    json('the list (and the checks)'),
    timeout('each runtime (with --check)'),
    {
      name: '--set-active',
      kind: 'text',
      value: '<name>',
      need: 'a runtime name that `khronos-loader runtimes` lists',
      help: "make this runtime the active one for this user: writes active_runtime.json in $XDG_CONFIG_HOME/openxr/1 (~/.config when unset), whole or not at all, keeping the one it replaces as active_runtime.json.previous",
    },
  ],
  exitCodes: `1 with --check when the active runtime is broken; 0 otherwise, also when no runtime is active (the output says so, and that the bundled one is there, as doctor does); ${USAGE_EXIT}`,
  examples: ['khronos-loader runtimes', 'khronos-loader runtimes --check'],
} as const satisfies CommandSpec;

const nameList = (what: string) => ({ name: what.split(' ')[0] as `--${string}`, kind: 'text', value: '<a,b,...>', need: 'layer names separated by commas', help: what.split(' ').slice(1).join(' ') }) as const;

export const LAYERS_VULKAN = {
  name: 'layers vulkan',
  summary: 'list, enable, disable and order Vulkan layers, for all applications or one (--app), in the loader settings file',
  description:
    'A headless vkconfig: edits the user\'s Vulkan loader settings file in the Khronos format: the one in force (the first of $XDG_CONFIG_HOME, $XDG_DATA_HOME, ~/.config, ~/.local/share holding vulkan/loader_settings.d/vk_loader_settings.json, in the Khronos loader\'s order), else $XDG_DATA_HOME\'s (~/.local/share when unset), where vkconfig writes it) ' +
    'and lists what the loader then does: the file\'s entries, the chain an application asking for no layers gets, and every layer on or off and why. ' +
    'The file is written whole or not at all (a temporary file renamed over it); its other settings are kept. Without an edit option it only lists.',
  options: [
    { name: '--app', kind: 'text', value: '<executable>', need: "an executable's absolute path", help: "edit (and list) the settings for this executable (app_keys) instead of the global ones" },
    nameList('--enable turn these layers on ("on" entries, before the layers the file does not name)'),
    nameList('--disable turn these layers off ("off" entries: not listed, not loadable)'),
    nameList('--order put these layers first, in this order, application side first'),
    { name: '--reset', kind: 'switch', help: "drop the layer configuration of these settings (then the other options apply, if any)" },
    json('the file written, the settings in force, the chain and the layers'),
  ],
  exitCodes: `0 when the settings were listed (and written), 1 when a named layer is not installed or the file cannot be written (nothing is written then), ${USAGE_EXIT}`,
  examples: ['khronos-loader layers vulkan', 'khronos-loader layers vulkan --enable VK_LAYER_KHRONOS_validation --disable VK_LAYER_MANGOHUD_overlay', 'khronos-loader layers vulkan --app /usr/bin/vkcube --order VK_LAYER_LUNARG_api_dump,VK_LAYER_KHRONOS_validation'],
} as const satisfies CommandSpec;

export const LAYERS_OPENXR = {
  name: 'layers openxr',
  summary: 'the OpenXR API layers an application gets, in chain order, and every API layer on or off, each with the rule that decided it',
  description:
    'Lists the chain an application asking for no API layers (or for --request\'s) gets, application side first, with the rule that put each layer there ' +
    '(an implicit layer on by its environment, XR_ENABLE_API_LAYERS, the application), and every API layer found, on, off or shadowed by an earlier manifest of the same name, and why. ' +
    'The Khronos OpenXR loader reads its layers from the environment only (XR_API_LAYER_PATH, XR_ENABLE_API_LAYERS, each implicit layer\'s enable and disable variables): there is no settings file to write, so this command only lists.',
  options: [
    nameList('--request the layers the application asks for (default none)'),
    json('the chain, the layers and XR_ENABLE_API_LAYERS'),
  ],
  exitCodes: `0 when the chain could be built, 1 when it cannot (a layer asked for is not present: the output says which), ${USAGE_EXIT}`,
  examples: ['khronos-loader layers openxr', 'khronos-loader layers openxr --request XR_APILAYER_LUNARG_core_validation --json'],
} as const satisfies CommandSpec;

export const DEMO = {
  name: 'demo',
  summary: 'a 90 Hz frame loop through the loader on the bundled simulated runtime (or --runtime\'s): frames, event-loop lag, ns per call',
  description:
    'Runs a frame loop through this loader on the simulated runtime bundled with khronos-loader (or on --runtime\'s, in the mode the frame loop finds there), with the bundled pass-through API layer and, ' +
    'when installed for this CPU, the Khronos core_validation layer; prints frames rendered and missed, event-loop lag and what each per-frame call costs from JavaScript.\n\n' +
    'With --vulkan the session renders through Vulkan (this package\'s Vulkan loader, VK_LAYER_KHRONOS_validation when installed): each eye cleared to a colour that changes every frame; ' +
    'on the simulated runtime the frames it received are checked against what was drawn.',
  options: [
    { name: '--seconds', kind: 'positive-number', value: '<s>', need: 'a number of seconds greater than 0', help: 'how long the frame loop runs (default 5)' },
    runtimeOption('run on this runtime instead of the bundled simulated one'),
    { name: '--vulkan', kind: 'switch', help: 'render through Vulkan (XR_KHR_vulkan_enable2) instead of a headless session' },
    { name: '--scene', kind: 'switch', help: 'run examples/xr-scene.ts: a lit scene (floor grid, a cube at each controller, hand joints) drawn through Vulkan every frame, depth submitted; prints frames drawn and missed and JavaScript time per frame' },
    json('the result'),
  ],
  exitCodes: `0 when the frame loop ran, 1 when it could not (the reason on stderr), ${USAGE_EXIT}`,
  examples: ['khronos-loader demo', 'khronos-loader demo --seconds 10 --vulkan', 'khronos-loader demo --scene', "khronos-loader demo --runtime Monado"],
} as const satisfies CommandSpec;

const DOCTOR_OPTIONS = [json('the report'), timeout('each library to load and negotiate')] as const;

export const DOCTOR_OPENXR = {
  name: 'doctor openxr',
  usage: 'doctor [openxr] [options]',
  summary: 'load and negotiate the active runtime and every API layer (each in a child process): problems and fixes',
  description:
    'Checks every OpenXR manifest found (schema, versions, library present, architecture), then loads and negotiates the active runtime and each API layer in a child process of its own, ' +
    'so a library that crashes or hangs cannot take the doctor down. One line per problem, with what to do about it. `doctor vulkan` does the same for Vulkan.\n\n' +
    `When no runtime is active (none installed, or none made active), the report says so and that the bundled simulated runtime is there (--runtime ${BUNDLED_RUNTIME_KEYWORD}): that is not a broken runtime.`,
  options: DOCTOR_OPTIONS,
  exitCodes: `1 when the active runtime or an API layer in force is broken; 0 otherwise, also when no runtime is active (as runtimes --check); ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

export const DOCTOR_VULKAN = {
  name: 'doctor vulkan',
  summary: 'the same for every Vulkan driver (and its physical devices) and layer',
  description:
    'Checks every Vulkan driver and layer manifest found, then loads and negotiates each driver (and asks it for its physical devices through an instance of its own) and each layer in a child process of its own. ' +
    'One line per problem, with what to do about it.',
  options: DOCTOR_OPTIONS,
  exitCodes: `1 when a selected driver or a layer in force is broken, else 0; ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

const iterations = (what: string) => ({ name: '--iterations', kind: 'positive-integer', value: '<n>', help: what }) as const;
const repeats = (def: number) => ({ name: '--repeats', kind: 'positive-integer', value: '<n>', help: `timed runs per cell, after a warm-up (default ${def})` }) as const;
const noKhronos = (what: string) => ({ name: '--no-khronos', kind: 'switch', help: `leave the Khronos loader${what} out` }) as const;
const khronosLoader = (library: string) =>
  ({ name: '--khronos-loader', kind: 'text', value: '<library>', need: 'a library path', help: `the Khronos loader library (default: ${library} where distributions put it)` }) as const;

export const BENCH_OPENXR = {
  name: 'bench openxr',
  summary: 'ns per call with 0..N pass-through layers and real layers, beside the Khronos loader and koffi',
  description:
    'Times one OpenXR command through this loader (its exported trampoline, the pointer from xrGetInstanceProcAddr, and from JavaScript where the typed API has the call) with 0..N copies of the bundled pass-through layer ' +
    'and with real layers, beside the Khronos loader and koffi when installed, on the simulated runtime bundled with khronos-loader. ' +
    '`bench openxr --command frame --help` tells about the frame-query benchmark, `bench openxr --command scene --help` about the XR scene benchmark.',
  options: [
    {
      name: '--command',
      kind: 'text',
      value: '<name>',
      need: `one of ${[...BENCH_COMMANDS.map((c) => c.name), 'frame', 'scene'].join(', ')}`,
      check: (name) =>
        name === 'frame' || name === 'scene' || BENCH_COMMANDS.some((c) => c.name === name)
          ? undefined
          : { need: `one of ${[...BENCH_COMMANDS.map((c) => c.name), 'frame', 'scene'].join(', ')}`, ...(/^xr(Begin|End)Frame$/.test(name) ? { note: `${name} is timed as part of the xrWaitFrame frame` } : {}) },
      help: `${BENCH_COMMANDS.map((c) => c.name).join(', ')} (default xrLocateSpace), or frame: N spaces per frame, N locate calls against one frame query, or scene: the XR scene example's frames`,
    },
    { name: '--layers', kind: 'text', value: '<list>', help: 'comma-separated: a number N for rows with 0..N pass-through layers (default 4), and names of real API layers for a row each (e.g. XR_APILAYER_LUNARG_core_validation)' },
    iterations('calls (frames for xrWaitFrame) per timed run (default per command)'),
    repeats(7),
    { name: '--processes', kind: 'positive-integer', value: '<n>', help: "fresh child processes per side and row, alternating the sides (default 1); a cell is then the median of the processes' medians" },
    runtimeOption('run on this runtime (XR_RUNTIME_JSON for both loaders) instead of the bundled simulated one'),
    json('the results'),
    { name: '--svg', kind: 'output-file', value: '<file>', help: 'also write the chart (cost per call against layer count) as SVG; its folder is checked before the benchmark starts' },
    noKhronos(' (and koffi)'),
    khronosLoader('libopenxr_loader.so.1'),
  ],
  exitCodes: `0 when the benchmark ran, 1 when it failed, ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

export const BENCH_OPENXR_FRAME = {
  name: 'bench openxr --command frame',
  summary: 'per frame, N spaces located: N locate calls, one frame query, and the same in C',
  description:
    'Per frame, N reference spaces located in LOCAL: N space.locate calls from JavaScript, one frame query (session.createFrameQuery) from JavaScript, and the query\'s work in C through this loader ' +
    '(xrLocateSpace in a loop; xrLocateSpaces on an OpenXR 1.1 instance), on the simulated runtime bundled with khronos-loader.',
  options: [
    { name: '--command', kind: 'choice', value: 'frame', choices: ['frame', 'paced'], help: "'frame': the frame-query benchmark; 'paced': JavaScript-thread time per read inside a paced 90 Hz runFrameLoop (the wait thread's frame query among them)" },
    { name: '--spaces', kind: 'text', value: '<list>', need: 'a whole number >= 1 per space count, separated by commas', help: `comma-separated space counts (default ${FRAME_BENCH_SPACE_COUNTS.join(',')})` },
    { name: '--api', kind: 'text', value: '<list>', need: `OpenXR instance versions ${FRAME_BENCH_API_VERSIONS.join(' and/or ')}, separated by commas`, help: `OpenXR instance versions: ${FRAME_BENCH_API_VERSIONS.join(', ')} or both (default ${FRAME_BENCH_API_VERSIONS.join(',')})` },
    iterations('frame: located spaces per timed run; frames = n ÷ spaces (default 40000); paced: ms each row\'s loop runs (default 3000)'),
    repeats(21),
    runtimeOption('run on this runtime instead of the bundled simulated one'),
    khronosLoader('libopenxr_loader.so.1; paced: its koffi rows'),
    json('the results'),
  ],
  usage: 'bench openxr --command frame [options]',
  exitCodes: `0 when the benchmark ran, 1 when it failed, ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

export const BENCH_OPENXR_SCENE = {
  name: 'bench openxr --command scene',
  summary: "the XR scene example at the runtime's rate: frames missed, JavaScript ms and young-generation bytes per frame",
  description:
    'Runs examples/xr-scene.ts (a floor grid, a cube at each controller, a sphere at each hand joint, drawn through Vulkan every frame, both eyes in one pass where the device has multiview) ' +
    'on the simulated runtime bundled with khronos-loader (or --runtime\'s) and reports the frames drawn and missed, the JavaScript thread\'s time per frame, and what the frame loop allocates in ' +
    "V8's young generation per frame (the new space's growth between frames with no scavenge in between, less the probe's own) with the scavenges counted.",
  options: [
    { name: '--command', kind: 'choice', value: 'scene', choices: ['scene'], help: 'the XR scene benchmark' },
    { name: '--seconds', kind: 'positive-number', value: '<s>', need: 'a number of seconds greater than 0', help: 'how long the scene runs (default 30)' },
    runtimeOption('run on this runtime instead of the bundled simulated one'),
    json('the result'),
  ],
  usage: 'bench openxr --command scene [options]',
  exitCodes: `0 when the benchmark ran, 1 when it failed, ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

export const BENCH_VULKAN = {
  name: 'bench vulkan',
  summary: 'ns per device call with pass-through layers and real layers, beside the Khronos loader, on lavapipe',
  description:
    'Times one Vulkan device command through this loader (its exported trampoline and the pointer from vkGetDeviceProcAddr) with copies of the bundled pass-through Vulkan layer and with real layers, ' +
    'beside the Khronos loader (libvulkan.so.1, dlopened in the same child processes), on lavapipe.',
  options: [
    {
      name: '--command',
      kind: 'choice',
      value: '<name>',
      choices: [...VULKAN_BENCH_COMMAND_NAMES, RECORD_COMMAND],
      help: `${VULKAN_BENCH_COMMAND_NAMES.join(', ')} (default ${VULKAN_BENCH_COMMAND_NAMES[0]}), or ${RECORD_COMMAND}: a frame of 10,000 compute commands recorded one N-API call per command, through the CommandEncoder, and in a C loop (no layers; --iterations is frames per run)`,
    },
    { name: '--layers', kind: 'text', value: '<list>', help: 'comma-separated: numbers of pass-through layers for a row each (default 0,1,3), and names of real layers for a row each (e.g. VK_LAYER_KHRONOS_validation)' },
    iterations('calls per timed run (default per command)'),
    repeats(7),
    { name: '--processes', kind: 'positive-integer', value: '<n>', help: 'fresh child processes per row, each timing both loaders (default 1; 6 or more give the trampoline verdict an interval: met / within noise / missed)' },
    {
      name: '--max-processes',
      kind: 'positive-integer',
      value: '<n>',
      help: "a row whose verdict is within noise is measured again, --processes more at a time, up to this many (default: --processes); each look's interval is then wider, so that the verdict is wrong at most 5 % of the time",
    },
    { name: '--driver', kind: 'text', value: '<manifest>', need: 'a driver manifest path', help: "the driver manifest (default lavapipe's)" },
    json('the results'),
    noKhronos(''),
    khronosLoader('libvulkan.so.1'),
  ],
  exitCodes: `0 when the benchmark ran, 1 when it failed, ${USAGE_EXIT}`,
} as const satisfies CommandSpec;

/** A command with sub-commands (info, doctor, bench): its sub-commands and, for doctor, the one it means alone. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly CommandSpec[];
  /** The sub-command the group's name alone means (doctor: doctor openxr). */
  readonly default?: CommandSpec;
}

export const LAYERS: CommandGroup = { name: 'layers', summary: 'edit which layers the loader loads, and in what order', commands: [LAYERS_VULKAN, LAYERS_OPENXR] };
export const INFO: CommandGroup = { name: 'info', summary: 'what discovery finds and decides', commands: [INFO_OPENXR, INFO_VULKAN] };
export const DOCTOR: CommandGroup = { name: 'doctor', summary: 'load every runtime, driver and layer in a child process: problems and fixes', commands: [DOCTOR_OPENXR, DOCTOR_VULKAN], default: DOCTOR_OPENXR };
export const BENCH: CommandGroup = { name: 'bench', summary: 'what a layer costs per call', commands: [BENCH_OPENXR, BENCH_OPENXR_FRAME, BENCH_OPENXR_SCENE, BENCH_VULKAN] };

/** The top-level commands, in the order the help lists them. */
export const TOP_LEVEL: readonly (CommandSpec | CommandGroup)[] = [INFO, RUNTIMES, LAYERS, DEMO, DOCTOR, BENCH];

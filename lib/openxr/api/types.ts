// Names for the OpenXR enumerants the typed API takes and returns (values from the registry).
import { invalidArgument } from '../../core/errors.js';

export const FORM_FACTORS = { 'head-mounted-display': 1, 'handheld-display': 2 } as const;
export type FormFactorName = keyof typeof FORM_FACTORS;

export const VIEW_CONFIGURATION_TYPES = { 'primary-mono': 1, 'primary-stereo': 2 } as const;
export type ViewConfigurationTypeName = keyof typeof VIEW_CONFIGURATION_TYPES;

export const REFERENCE_SPACE_TYPES = { view: 1, local: 2, stage: 3, 'local-floor': 1000426000 } as const;
export type ReferenceSpaceTypeName = keyof typeof REFERENCE_SPACE_TYPES;

export const ENVIRONMENT_BLEND_MODES = { opaque: 1, additive: 2, 'alpha-blend': 3 } as const;
export type EnvironmentBlendModeName = keyof typeof ENVIRONMENT_BLEND_MODES;

export const ACTION_TYPES = { boolean: 1, float: 2, vector2f: 3, pose: 4, vibration: 100 } as const;
export type ActionTypeName = keyof typeof ACTION_TYPES;

/** XrSessionState, in value order (XR_SESSION_STATE_UNKNOWN = 0 ... EXITING = 8). */
export const SESSION_STATES = [
  'unknown',
  'idle',
  'ready',
  'synchronized',
  'visible',
  'focused',
  'stopping',
  'loss-pending',
  'exiting',
] as const;
export type SessionStateName = (typeof SESSION_STATES)[number];

/** XrSpaceLocationFlags bits, as space.locate() returns them. */
export const SpaceLocationFlags = {
  ORIENTATION_VALID: 0x1,
  POSITION_VALID: 0x2,
  ORIENTATION_TRACKED: 0x4,
  POSITION_TRACKED: 0x8,
} as const;

/** XrViewStateFlags bits, as session.locateViews() returns them. */
export const ViewStateFlags = SpaceLocationFlags;

/** Floats per view in session.locateViews()' output: pose (px py pz qx qy qz qw), then fov (left right up down). */
export const VIEW_FLOATS = 11;
/** Floats in space.locate()' output: px py pz qx qy qz qw. */
export const POSE_FLOATS = 7;

/** The value of a name in one of the tables above; an InvalidArgumentError naming the choices otherwise. */
export function enumValue<T extends Record<string, number>>(table: T, name: unknown, what: string): number {
  if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(table, name)) return table[name] as number;
  throw invalidArgument(what, `one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')}`, name);
}

export function enumName<T extends Record<string, number>>(table: T, value: number): keyof T | undefined {
  for (const [k, v] of Object.entries(table)) if (v === value) return k as keyof T;
  return undefined;
}

/**
 * An XrTime: nanoseconds of the runtime's clock, as a bigint (a number is exact only to 2^53 ns,
 * 104 days of uptime). Calls that take a time also take a number, for times known to be small.
 */
export type XrTime = bigint;

/** XrHandEXT (XR_EXT_hand_tracking). */
export const HANDS = { left: 1, right: 2 } as const;
export type HandName = keyof typeof HANDS;

/** The joints of XR_HAND_JOINT_SET_DEFAULT_EXT, in XrHandJointEXT order (the index of each in tracker.locate()'s output). */
export const HAND_JOINTS = [
  'palm',
  'wrist',
  'thumb-metacarpal',
  'thumb-proximal',
  'thumb-distal',
  'thumb-tip',
  'index-metacarpal',
  'index-proximal',
  'index-intermediate',
  'index-distal',
  'index-tip',
  'middle-metacarpal',
  'middle-proximal',
  'middle-intermediate',
  'middle-distal',
  'middle-tip',
  'ring-metacarpal',
  'ring-proximal',
  'ring-intermediate',
  'ring-distal',
  'ring-tip',
  'little-metacarpal',
  'little-proximal',
  'little-intermediate',
  'little-distal',
  'little-tip',
] as const;
export type HandJointName = (typeof HAND_JOINTS)[number];
/** XR_HAND_JOINT_COUNT_EXT. */
export const HAND_JOINT_COUNT = 26;
/**
 * tracker.locate()'s output is the runtime's own XrHandJointLocationEXT array, written by the
 * runtime straight into the caller's Float32Array (nothing copied): 40 bytes, 10 floats, a joint.
 * Joint `j` starts at float `j * HAND_JOINT_STRIDE`; add HAND_JOINT_ORIENTATION (qx qy qz qw),
 * HAND_JOINT_POSITION (px py pz) or HAND_JOINT_RADIUS (metres). Its XrSpaceLocationFlags are a
 * uint64 at HAND_JOINT_FLAGS: read them through a Uint32Array over the same memory
 * (`new Uint32Array(out.buffer, out.byteOffset, out.length)`, made once), low 32 bits at
 * `j * HAND_JOINT_STRIDE + HAND_JOINT_FLAGS` (every SpaceLocationFlags bit is there).
 */
export const HAND_JOINT_STRIDE = 10;
/** Offset in a joint (HAND_JOINT_STRIDE) of its XrSpaceLocationFlags' low 32 bits, in a Uint32Array over the output. */
export const HAND_JOINT_FLAGS = 0;
/** Offset in a joint (HAND_JOINT_STRIDE) of its orientation quaternion qx qy qz qw. */
export const HAND_JOINT_ORIENTATION = 2;
/** Offset in a joint (HAND_JOINT_STRIDE) of its position px py pz. */
export const HAND_JOINT_POSITION = 6;
/** Offset in a joint (HAND_JOINT_STRIDE) of its radius in metres. */
export const HAND_JOINT_RADIUS = 9;

/** XrInputSourceLocalizedNameFlags, for session.inputSourceLocalizedName(). */
export const INPUT_SOURCE_NAME_PARTS = { 'user-path': 0x1, 'interaction-profile': 0x2, component: 0x4 } as const;
export type InputSourceNamePart = keyof typeof INPUT_SOURCE_NAME_PARTS;

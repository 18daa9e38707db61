// What a compute pipeline needs of its layout, read from the SPIR-V module itself (the SPIR-V
// specification, "2.3 Physical Layout of a SPIR-V Module and Instruction" and "3.32 Instructions"):
// the resource variables (DescriptorSet/Binding decorations, their descriptor kind and array size)
// and the push-constant block's byte range. A word stream read once per shader module: a layout
// that does not cover what the shader declares is refused before vkCreateComputePipelines
// (Vulkan specification, "Shader Resource Interface": VUID-VkComputePipelineCreateInfo-layout-07988,
// -07990, -07991, -07987), instead of the undefined behaviour a driver may crash on.

/** The descriptor kinds a shader resource variable accepts (VkDescriptorType values). */
export interface ShaderResource {
  readonly set: number;
  readonly binding: number;
  /** The VkDescriptorType values a layout binding may have for this variable. */
  readonly descriptorTypes: readonly number[];
  /** Array elements the variable declares (1 for a non-array; 0 for a runtime array). */
  readonly count: number;
}

export interface ShaderInterface {
  readonly resources: readonly ShaderResource[];
  /** The push-constant block's bytes [offset, end), or null when the shader declares none. */
  readonly pushConstants: { readonly offset: number; readonly end: number } | null;
  /** The execution model of each OpEntryPoint, by name (Vertex = 0, Fragment = 4, GLCompute = 5). */
  readonly entryPoints: ReadonlyMap<string, number>;
  /**
   * The Location numbers the module's Input variables take (built-ins left out), ascending: for a
   * vertex shader, the vertex attributes a graphics pipeline's vertex input must provide
   * (Vulkan specification, "Vertex Input Description"). A matrix or array takes one Location per
   * column or element.
   */
  readonly inputLocations: readonly number[];
}

const MAGIC = 0x07230203;
// Opcodes (SPIR-V specification, 3.32)
const OP_NAME_ENTRY_POINT = 15;
const OP_TYPE_INT = 21;
const OP_TYPE_FLOAT = 22;
const OP_TYPE_VECTOR = 23;
const OP_TYPE_MATRIX = 24;
const OP_TYPE_IMAGE = 25;
const OP_TYPE_SAMPLER = 26;
const OP_TYPE_SAMPLED_IMAGE = 27;
const OP_TYPE_ARRAY = 28;
const OP_TYPE_RUNTIME_ARRAY = 29;
const OP_TYPE_STRUCT = 30;
const OP_TYPE_POINTER = 32;
const OP_CONSTANT = 43;
const OP_VARIABLE = 59;
const OP_DECORATE = 71;
const OP_MEMBER_DECORATE = 72;
const OP_TYPE_ACCELERATION_STRUCTURE = 5341;
// Decorations (3.20)
const DEC_BLOCK = 2;
const DEC_BUFFER_BLOCK = 3;
const DEC_MATRIX_STRIDE = 7;
const DEC_ARRAY_STRIDE = 6;
const DEC_BINDING = 33;
const DEC_DESCRIPTOR_SET = 34;
const DEC_OFFSET = 35;
const DEC_BUILT_IN = 11;
const DEC_LOCATION = 30;
// Storage classes (3.7)
const SC_UNIFORM_CONSTANT = 0;
const SC_INPUT = 1;
const SC_UNIFORM = 2;
const SC_PUSH_CONSTANT = 9;
const SC_STORAGE_BUFFER = 12;
// Dim (3.8)
const DIM_BUFFER = 5;
const DIM_SUBPASS_DATA = 6;

// VkDescriptorType
const SAMPLER = 0;
const COMBINED_IMAGE_SAMPLER = 1;
const SAMPLED_IMAGE = 2;
const STORAGE_IMAGE = 3;
const UNIFORM_TEXEL_BUFFER = 4;
const STORAGE_TEXEL_BUFFER = 5;
const UNIFORM_BUFFER = 6;
const STORAGE_BUFFER = 7;
const UNIFORM_BUFFER_DYNAMIC = 8;
const STORAGE_BUFFER_DYNAMIC = 9;
const INPUT_ATTACHMENT = 10;
const ACCELERATION_STRUCTURE_KHR = 1000150000;

/** A module that is not SPIR-V this reader can follow (the driver would judge it; we refuse it first). */
export class SpirvFormatError extends Error {}

function readString(words: Uint32Array, at: number, end: number): { text: string; next: number } {
  const bytes: number[] = [];
  for (let w = at; w < end; w++) {
    const word = words[w]!;
    for (let b = 0; b < 4; b++) {
      const c = (word >>> (8 * b)) & 0xff;
      if (c === 0) return { text: String.fromCharCode(...bytes), next: w + 1 };
      bytes.push(c);
    }
  }
  throw new SpirvFormatError('a string operand is not NUL-terminated inside its instruction');
}

/** Reads the resource interface of a SPIR-V module (SpirvFormatError when the word stream is malformed). */
export function readShaderInterface(code: Uint32Array): ShaderInterface {
  if (code.length < 5 || code[0] !== MAGIC) throw new SpirvFormatError('not a SPIR-V module (no magic number or no header)');
  type Type = { op: number; words: number[] };
  const types = new Map<number, Type>();
  const constants = new Map<number, number>();
  const decorations = new Map<number, Map<number, number>>();
  const memberOffsets = new Map<number, Map<number, number>>();
  const memberMatrixStrides = new Map<number, Map<number, number>>();
  const variables: { id: number; pointerType: number; storageClass: number }[] = [];
  const entryPoints = new Map<string, number>();
  for (let at = 5; at < code.length; ) {
    const header = code[at]!;
    const count = header >>> 16;
    const op = header & 0xffff;
    if (count === 0 || at + count > code.length) throw new SpirvFormatError(`instruction at word ${at} (opcode ${op}) has a word count of ${count} that does not fit the module`);
    const operands = Array.from(code.subarray(at + 1, at + count));
    switch (op) {
      case OP_NAME_ENTRY_POINT:
        if (operands.length >= 3) entryPoints.set(readString(code, at + 3, at + count).text, operands[0]!);
        break;
      case OP_TYPE_INT:
      case OP_TYPE_FLOAT:
      case OP_TYPE_VECTOR:
      case OP_TYPE_MATRIX:
      case OP_TYPE_IMAGE:
      case OP_TYPE_SAMPLER:
      case OP_TYPE_SAMPLED_IMAGE:
      case OP_TYPE_ARRAY:
      case OP_TYPE_RUNTIME_ARRAY:
      case OP_TYPE_STRUCT:
      case OP_TYPE_POINTER:
      case OP_TYPE_ACCELERATION_STRUCTURE:
        if (operands.length >= 1) types.set(operands[0]!, { op, words: operands.slice(1) });
        break;
      case OP_CONSTANT:
        // result type, result id, value (the low word is enough for an array length)
        if (operands.length >= 3) constants.set(operands[1]!, operands[2]!);
        break;
      case OP_VARIABLE:
        if (operands.length >= 3) variables.push({ pointerType: operands[0]!, id: operands[1]!, storageClass: operands[2]! });
        break;
      case OP_DECORATE:
        if (operands.length >= 2) {
          let d = decorations.get(operands[0]!);
          if (d === undefined) decorations.set(operands[0]!, (d = new Map()));
          d.set(operands[1]!, operands[2] ?? 1);
        }
        break;
      case OP_MEMBER_DECORATE:
        if (operands.length >= 4 && operands[2] === DEC_OFFSET) {
          let m = memberOffsets.get(operands[0]!);
          if (m === undefined) memberOffsets.set(operands[0]!, (m = new Map()));
          m.set(operands[1]!, operands[3]!);
        }
        if (operands.length >= 4 && operands[2] === DEC_MATRIX_STRIDE) {
          let m = memberMatrixStrides.get(operands[0]!);
          if (m === undefined) memberMatrixStrides.set(operands[0]!, (m = new Map()));
          m.set(operands[1]!, operands[3]!);
        }
        break;
      default:
        break;
    }
    at += count;
  }

  const type = (id: number): Type => {
    const t = types.get(id);
    if (t === undefined) throw new SpirvFormatError(`type %${id} is used but not declared`);
    return t;
  };
  // Byte size of a type in an explicitly laid-out block (Offset/ArrayStride/MatrixStride decorations).
  const sizeOf = (id: number, matrixStride: number | undefined, depth: number): number => {
    if (depth > 32) throw new SpirvFormatError('types nest too deep');
    const t = type(id);
    switch (t.op) {
      case OP_TYPE_INT:
      case OP_TYPE_FLOAT:
        return (t.words[0] ?? 32) / 8;
      case OP_TYPE_VECTOR:
        return sizeOf(t.words[0]!, undefined, depth + 1) * (t.words[1] ?? 1);
      case OP_TYPE_MATRIX: {
        const columns = t.words[1] ?? 1;
        return matrixStride !== undefined ? matrixStride * columns : sizeOf(t.words[0]!, undefined, depth + 1) * columns;
      }
      case OP_TYPE_ARRAY: {
        const length = constants.get(t.words[1]!) ?? 1;
        const stride = decorations.get(id)?.get(DEC_ARRAY_STRIDE) ?? sizeOf(t.words[0]!, matrixStride, depth + 1);
        return stride * length;
      }
      case OP_TYPE_STRUCT: {
        const offsets = memberOffsets.get(id);
        const strides = memberMatrixStrides.get(id);
        let end = 0;
        t.words.forEach((member, i) => {
          const offset = offsets?.get(i) ?? end;
          end = Math.max(end, offset + sizeOf(member, strides?.get(i), depth + 1));
        });
        return end;
      }
      default:
        return 0; // runtime arrays and opaque types take no fixed room
    }
  };

  const resources: ShaderResource[] = [];
  const inputLocations = new Set<number>();
  // Locations one input variable of type `id` takes (SPIR-V specification, "Location Assignment"):
  // a matrix one per column, an array one per element (64-bit vectors of 3 or 4 components take two).
  const locationsOf = (id: number, depth: number): number => {
    if (depth > 32) throw new SpirvFormatError('types nest too deep');
    const t = type(id);
    if (t.op === OP_TYPE_MATRIX) return (t.words[1] ?? 1) * locationsOf(t.words[0]!, depth + 1);
    if (t.op === OP_TYPE_ARRAY) return (constants.get(t.words[1]!) ?? 1) * locationsOf(t.words[0]!, depth + 1);
    if (t.op === OP_TYPE_VECTOR) {
      const component = type(t.words[0]!);
      return (component.words[0] ?? 32) === 64 && (t.words[1] ?? 1) > 2 ? 2 : 1;
    }
    return 1;
  };
  let pushConstants: { offset: number; end: number } | null = null;
  for (const v of variables) {
    const pointer = type(v.pointerType);
    if (pointer.op !== OP_TYPE_POINTER) throw new SpirvFormatError(`variable %${v.id}'s type is not a pointer`);
    let pointee = pointer.words[1]!;
    if (v.storageClass === SC_INPUT) {
      const deco = decorations.get(v.id);
      const location = deco?.get(DEC_LOCATION);
      if (deco?.has(DEC_BUILT_IN) === true || location === undefined) continue;
      const n = locationsOf(pointee, 0);
      for (let i = 0; i < n; i++) inputLocations.add(location + i);
      continue;
    }
    if (v.storageClass === SC_PUSH_CONSTANT) {
      const block = type(pointee);
      if (block.op !== OP_TYPE_STRUCT) continue;
      const offsets = memberOffsets.get(pointee);
      const strides = memberMatrixStrides.get(pointee);
      let start = Infinity;
      let end = 0;
      block.words.forEach((member, i) => {
        const offset = offsets?.get(i) ?? 0;
        start = Math.min(start, offset);
        end = Math.max(end, offset + sizeOf(member, strides?.get(i), 0));
      });
      if (end > 0) pushConstants = { offset: start === Infinity ? 0 : start, end };
      continue;
    }
    if (v.storageClass !== SC_UNIFORM_CONSTANT && v.storageClass !== SC_UNIFORM && v.storageClass !== SC_STORAGE_BUFFER) continue;
    const deco = decorations.get(v.id);
    const binding = deco?.get(DEC_BINDING);
    if (binding === undefined) continue; // not a descriptor (e.g. a specialization-only constant)
    const set = deco?.get(DEC_DESCRIPTOR_SET) ?? 0;
    let count = 1;
    let t = type(pointee);
    if (t.op === OP_TYPE_ARRAY) {
      count = constants.get(t.words[1]!) ?? 1;
      pointee = t.words[0]!;
      t = type(pointee);
    } else if (t.op === OP_TYPE_RUNTIME_ARRAY) {
      count = 0;
      pointee = t.words[0]!;
      t = type(pointee);
    }
    let descriptorTypes: number[];
    if (v.storageClass === SC_STORAGE_BUFFER) descriptorTypes = [STORAGE_BUFFER, STORAGE_BUFFER_DYNAMIC];
    else if (v.storageClass === SC_UNIFORM) {
      descriptorTypes = decorations.get(pointee)?.has(DEC_BUFFER_BLOCK) === true ? [STORAGE_BUFFER, STORAGE_BUFFER_DYNAMIC] : [UNIFORM_BUFFER, UNIFORM_BUFFER_DYNAMIC];
      if (decorations.get(pointee)?.has(DEC_BLOCK) !== true && decorations.get(pointee)?.has(DEC_BUFFER_BLOCK) !== true) continue;
    } else if (t.op === OP_TYPE_SAMPLER) descriptorTypes = [SAMPLER];
    else if (t.op === OP_TYPE_SAMPLED_IMAGE) descriptorTypes = [COMBINED_IMAGE_SAMPLER];
    else if (t.op === OP_TYPE_ACCELERATION_STRUCTURE) descriptorTypes = [ACCELERATION_STRUCTURE_KHR];
    else if (t.op === OP_TYPE_IMAGE) {
      const dim = t.words[1];
      const sampled = t.words[5];
      if (dim === DIM_SUBPASS_DATA) descriptorTypes = [INPUT_ATTACHMENT];
      else if (dim === DIM_BUFFER) descriptorTypes = sampled === 2 ? [STORAGE_TEXEL_BUFFER] : [UNIFORM_TEXEL_BUFFER];
      else descriptorTypes = sampled === 2 ? [STORAGE_IMAGE] : sampled === 1 ? [SAMPLED_IMAGE, COMBINED_IMAGE_SAMPLER] : [SAMPLED_IMAGE, STORAGE_IMAGE, COMBINED_IMAGE_SAMPLER];
    } else continue;
    resources.push({ set, binding, descriptorTypes, count });
  }
  return { resources, pushConstants, entryPoints, inputLocations: [...inputLocations].sort((a, b) => a - b) };
}

// The command encoder's generated opcodes (scripts/generator/encoder-vulkan.ts): every core vkCmd*
// of vk.xml, counted by this test's own reading of the registry, is either an opcode with its
// arguments' kinds and checks, or listed as left out with why; the layouts the specification fixes.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRegistryDir } from '../../../scripts/generate.js';
import { decodeWalked, EncodedVulkanCommands, ENCODED_COMMANDS, ENCODED_ENUMS, ENCODED_OPCODE_BASE, ENCODED_STRUCTS, ENCODER_LEFT_OUT, ENCODED_UNNAMED } from '../../../lib/generated/vulkan-encoder.js';
import { InvalidArgumentError } from '../../../lib/core/errors.js';

const xml = readFileSync(path.join(defaultRegistryDir(), 'vk.xml'), 'utf8');
const doc = new DOMParser().parseFromString(xml, 'text/xml');

/** The vkCmd* commands the Vulkan 1.0-1.4 features (api vulkan) require, each once. */
function coreCmdCommands(): Set<string> {
  const names = new Set<string>();
  const features = Array.from(doc.getElementsByTagName('feature')).filter((f) => f.parentNode?.nodeName === 'registry');
  for (const f of features as Element[]) {
    if (!(f.getAttribute('api') ?? '').split(',').includes('vulkan') || !/^VK_(BASE_|COMPUTE_|GRAPHICS_)?VERSION_1_[0-4]$/.test(f.getAttribute('name') ?? '')) continue;
    for (const r of Array.from(f.getElementsByTagName('require')) as Element[]) {
      const api = r.getAttribute('api');
      if (api !== null && !api.split(',').includes('vulkan')) continue;
      for (const c of Array.from(r.getElementsByTagName('command')) as Element[]) {
        const name = c.getAttribute('name') ?? '';
        if (name.startsWith('vkCmd')) names.add(name);
      }
    }
  }
  return names;
}

describe('the encoder\'s generated opcodes', () => {
  it('(VK-CE-1) every core vkCmd* of vk.xml is a generated opcode or left out with a reason, each once; opcodes numbered from ENCODED_OPCODE_BASE in table order', () => {
    const core = coreCmdCommands();
    expect(core.size).toBeGreaterThan(80);
    const encoded = ENCODED_COMMANDS.map((c) => c.name);
    const left = ENCODER_LEFT_OUT.map((c) => c.name);
    expect([...encoded, ...left].sort()).toEqual([...core].sort());
    expect(new Set(encoded).size).toBe(encoded.length);
    ENCODED_COMMANDS.forEach((c, i) => expect(c.opcode).toBe(ENCODED_OPCODE_BASE + i));
    for (const l of ENCODER_LEFT_OUT) expect(l.reason).toMatch(/holds no such object|has no count before it|array of pointers/);
    expect(encoded.length).toBeGreaterThanOrEqual(70);
  });

  it('(VK-CE-1) each opcode\'s arguments follow the registry\'s parameters: kinds, word offsets, 64-bit values in two words, enum value sets, slot kinds, renderpass scope', () => {
    const byName = new Map(ENCODED_COMMANDS.map((c) => [c.name, c]));
    const draw = byName.get('vkCmdDraw')!;
    expect(draw.args.map((a) => [a.name, a.kind, a.word])).toEqual([['vertexCount', 'U32', 0], ['instanceCount', 'U32', 1], ['firstVertex', 'U32', 2], ['firstInstance', 'U32', 3]]);
    expect([draw.words, draw.renderPass]).toEqual([5, 'inside']);
    const fill = byName.get('vkCmdFillBuffer')!;
    expect(fill.args.map((a) => [a.name, a.kind, a.word, a.slotMask])).toEqual([['dstBuffer', 'Slot', 0, 1 << 4], ['dstOffset', 'U64', 1, undefined], ['size', 'U64', 3, undefined], ['data', 'U32', 5, undefined]]);
    expect([fill.words, fill.renderPass]).toEqual([7, 'outside']);
    const indexed = byName.get('vkCmdDrawIndexed')!;
    expect(indexed.args.find((a) => a.name === 'vertexOffset')?.kind).toBe('I32');
    expect(byName.get('vkCmdSetLineWidth')!.args[0]!.kind).toBe('F32');
    expect(byName.get('vkCmdSetDepthTestEnable')!.args[0]!.kind).toBe('Bool32');
    const compare = byName.get('vkCmdSetDepthCompareOp')!.args[0]!;
    expect([compare.kind, compare.enum]).toEqual(['Enum', 'VkCompareOp']);
    expect(ENCODED_ENUMS.VkCompareOp).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(byName.get('vkCmdBindPipeline')!.args.map((a) => [a.kind, a.enum ?? a.slotMask])).toEqual([['Enum', 'VkPipelineBindPoint'], ['Slot', (1 << 1) | (1 << 6)]]);
    expect(byName.get('vkCmdEndRendering')!.renderPass).toBe('inside');
    for (const c of ENCODED_COMMANDS.filter((c) => !c.walked)) {
      const words = c.args.reduce((n, a) => n + (a.kind === 'U64' ? 2 : 1), 1);
      expect(c.words, c.name).toBe(words);
    }
  });

  it('(VK-CE-6) the pointer and array commands are walked opcodes: counts before their arrays (lengths from the registry\'s len), structures in declaration order, optional pointers with a presence word, unions as their largest member\'s words', () => {
    const byName = new Map(ENCODED_COMMANDS.map((c) => [c.name, c]));
    const named = ['vkCmdBindVertexBuffers', 'vkCmdBindVertexBuffers2', 'vkCmdBindDescriptorSets', 'vkCmdPushConstants', 'vkCmdSetViewport', 'vkCmdSetScissor', 'vkCmdSetViewportWithCount', 'vkCmdSetScissorWithCount', 'vkCmdPipelineBarrier', 'vkCmdPipelineBarrier2', 'vkCmdCopyBuffer', 'vkCmdCopyImage', 'vkCmdCopyBufferToImage', 'vkCmdCopyImageToBuffer', 'vkCmdClearColorImage', 'vkCmdClearAttachments', 'vkCmdBeginRendering', 'vkCmdBeginRenderPass', 'vkCmdBeginRenderPass2', 'vkCmdEndRenderPass2', 'vkCmdNextSubpass2'];
    for (const n of named) expect(byName.get(n)?.walked, n).toBe(true);
    for (const n of ['vkCmdEndRendering', 'vkCmdEndRenderPass', 'vkCmdNextSubpass', 'vkCmdDraw']) expect(byName.get(n)?.walked, n).toBe(false);
    const vb = byName.get('vkCmdBindVertexBuffers')!;
    expect(vb.nodes.map((n) => [n.name, n.shape, n.elem, n.count])).toEqual([['firstBinding', 'value', 'U32', undefined], ['bindingCount', 'count', 'U32', undefined], ['pBuffers', 'array', 'Slot', 'bindingCount'], ['pOffsets', 'array', 'U64', 'bindingCount']]);
    expect(vb.words).toBe(0);
    // pSizes and pStrides may be NULL beside a count pBuffers needs: a presence word each.
    expect(byName.get('vkCmdBindVertexBuffers2')!.nodes.filter((n) => n.presence).map((n) => n.name)).toEqual(['pSizes', 'pStrides']);
    expect(byName.get('vkCmdPushConstants')!.nodes.map((n) => [n.name, n.shape, n.elem])).toEqual([['layout', 'value', 'Slot'], ['stageFlags', 'value', 'U32'], ['offset', 'value', 'U32'], ['size', 'count', 'U32'], ['pValues', 'array', 'Bytes']]);
    const rendering = ENCODED_STRUCTS[byName.get('vkCmdBeginRendering')!.nodes[0]!.struct!]!;
    expect(rendering.name).toBe('VkRenderingInfo');
    expect(rendering.nodes.map((n) => [n.name, n.shape, n.presence ?? false])).toEqual([['flags', 'value', false], ['renderArea', 'value', false], ['layerCount', 'value', false], ['viewMask', 'value', false], ['colorAttachmentCount', 'count', false], ['pColorAttachments', 'array', false], ['pDepthAttachment', 'pointer', true], ['pStencilAttachment', 'pointer', true]]);
    const attachment = ENCODED_STRUCTS.find((s) => s.name === 'VkRenderingAttachmentInfo')!;
    expect(attachment.words).toBe(11); // imageView, imageLayout, resolveMode, resolveImageView, resolveImageLayout, loadOp, storeOp, clearValue (4)
    expect(attachment.nodes.find((n) => n.name === 'resolveImageView')).toMatchObject({ elem: 'Slot', optional: true, slotMask: 1 << 7 });
    expect(ENCODED_STRUCTS.find((s) => s.name === 'VkClearValue')).toMatchObject({ isUnion: true, words: 4 });
    expect(byName.get('vkCmdSetBlendConstants')).toMatchObject({ walked: true, words: 5 });
    // The scope commands: begin opens, end closes, next subpass needs a render pass.
    expect(['vkCmdBeginRendering', 'vkCmdBeginRenderPass', 'vkCmdEndRendering', 'vkCmdEndRenderPass', 'vkCmdNextSubpass'].map((n) => byName.get(n)!.scope)).toEqual([1, 2, 3, 4, 5]);
    // What is left: handles no table holds (secondary command buffers, samplers, update templates) and lengths the registry gives as another structure's member.
    expect(ENCODER_LEFT_OUT.map((l) => l.name)).toContain('vkCmdExecuteCommands');
    expect(ENCODER_LEFT_OUT.length).toBeLessThanOrEqual(7);
  });

  it('(VK-CE-11) the query and event commands have opcodes whose pools and events are table slots of their own kinds (QueryPool 10, VulkanEvent 11)', () => {
    const byName = new Map(ENCODED_COMMANDS.map((c) => [c.name, c]));
    const queries = ['vkCmdBeginQuery', 'vkCmdEndQuery', 'vkCmdResetQueryPool', 'vkCmdWriteTimestamp', 'vkCmdCopyQueryPoolResults', 'vkCmdWriteTimestamp2'];
    const events = ['vkCmdSetEvent', 'vkCmdResetEvent', 'vkCmdResetEvent2'];
    for (const n of queries) expect(byName.get(n)?.args.find((a) => a.name === 'queryPool')?.slotMask, n).toBe(1 << 10);
    for (const n of events) expect(byName.get(n)?.args.find((a) => a.name === 'event')?.slotMask, n).toBe(1 << 11);
    expect(byName.get('vkCmdWaitEvents')!.nodes.find((n) => n.name === 'pEvents')).toMatchObject({ shape: 'array', elem: 'Slot', slotMask: 1 << 11 });
    expect(byName.get('vkCmdWaitEvents2')?.walked).toBe(true);
    expect(byName.get('vkCmdSetEvent2')?.walked).toBe(true);
    const left = ENCODER_LEFT_OUT.map((l) => l.name);
    for (const n of [...queries, ...events, 'vkCmdWaitEvents', 'vkCmdWaitEvents2', 'vkCmdSetEvent2']) expect(left, n).not.toContain(n);
  });
});

/** The generated vkCmd* methods writing into a plain array of words, from word `at`. */
class Words extends EncodedVulkanCommands {
  readonly u = new Uint32Array(256);
  at = 0;
  protected encodeRoom(): Uint32Array {
    return this.u;
  }
  protected get encodeAt(): number {
    return this.at;
  }
  protected encodeCommit(words: number): void {
    this.at += words;
  }
  protected encodeCommitRun(words: number): void {
    this.at += words;
  }
  protected encodeCommitRunOf(words: number): void {
    this.at += words;
  }
  protected encodeSlot(): void {}
  protected encodeBytes(at: number, data: ArrayBufferView): void {
    new Uint8Array(this.u.buffer).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at * 4);
  }
  protected encodeRefuse(what: string, name: string | null): never {
    if (name === null) throw ENCODED_UNNAMED;
    throw new InvalidArgumentError(`${what}: ${name}`);
  }
}

describe('the walked commands read back (the encoder\'s end() walk)', () => {
  const viewportIndex = ENCODED_COMMANDS.findIndex((c) => c.name === 'vkCmdSetViewport');
  const pushIndex = ENCODED_COMMANDS.findIndex((c) => c.name === 'vkCmdPushConstants');
  const viewport = (width: number) => [{ x: 0, y: 0, width, height: 64, minDepth: 0, maxDepth: 1 }];

  it('(VK-CE-6) a walked command is read back once while its words and place stay, and anew when a word changes', () => {
    const e = new Words();
    e.vkCmdSetViewport(0, 1, viewport(64));
    const first = decodeWalked(viewportIndex, e.u, 1);
    expect((first.pViewports as { width: number }[])[0]!.width).toBe(64);
    expect(decodeWalked(viewportIndex, e.u, 1)).toBe(first); // the same words at the same place: read once
    e.at = 0;
    e.vkCmdSetViewport(0, 1, viewport(0)); // one word changed, in place
    const changed = decodeWalked(viewportIndex, e.u, 1);
    expect(changed).not.toBe(first);
    expect((changed.pViewports as { width: number }[])[0]!.width).toBe(0);
    e.at = 0;
    e.vkCmdSetViewport(0, 1, viewport(64));
    expect((decodeWalked(viewportIndex, e.u, 1).pViewports as { width: number }[])[0]!.width).toBe(64);
  });

  it('(VK-CE-6) the same words at another place read back as that place\'s (a byte array is its word range in the stream)', () => {
    const e = new Words();
    const data = new Uint32Array([1, 2, 3, 4]);
    e.vkCmdPushConstants(0, 1, 0, 16, data);
    expect(decodeWalked(pushIndex, e.u, 1).pValues).toEqual({ words: [5, 9] });
    // The same command after a viewport: the same words, 11 words further on.
    e.at = 0;
    e.vkCmdSetViewport(0, 1, viewport(64));
    const at = e.at;
    e.vkCmdPushConstants(0, 1, 0, 16, data);
    expect(at).toBe(9);
    expect(decodeWalked(pushIndex, e.u, at + 1).pValues).toEqual({ words: [at + 5, at + 9] });
  });
});

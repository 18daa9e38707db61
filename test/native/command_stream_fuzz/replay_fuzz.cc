// The encoded-command decoder (native/vulkan/loader/command_stream.cc) under AddressSanitizer and
// UndefinedBehaviorSanitizer: test/vulkan-native/command-stream.test.ts compiles this with the
// decoder (-fsanitize=address,undefined) and feeds it the fuzz cases it also gives the addon.
// Each case is validated; an accepted one is replayed into a dispatch table of functions that
// read every byte their pointers reach (walked commands' arrays and structures too). The stream and the kinds are heap copies of exactly their
// length, so a read past either is reported. Prints one line per case: "ok <commands>" or
// "refused <reason> <byteOffset>". Each case is also checked with the starts of its commands noted (as
// CommandEncoder notes them): the same verdict, or the stream found not as noted.
//
// Input file: cases, each [u32 kind count][kinds, padded to 4 bytes][u32 byteLength][bytes, padded to 4].
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "generated/vulkan_encoder.h"
#include "vulkan/loader/command_stream.h"

namespace {

namespace cs = kl::vulkan::command_stream;
namespace gen = kl::vulkan::gen;

// What the fake commands read, summed so the reads are not optimised away.
struct Reads {
  uint64_t sum = 0;
  void Bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) sum += b[i];
  }
};
Reads& reads() {
  static Reads r;  // this test program's one tally
  return r;
}

void VKAPI_CALL BindPipeline(VkCommandBuffer, VkPipelineBindPoint, VkPipeline p) { reads().Bytes(&p, sizeof p); }
void VKAPI_CALL BindDescriptorSets(VkCommandBuffer, VkPipelineBindPoint, VkPipelineLayout, uint32_t, uint32_t count, const VkDescriptorSet* sets,
                                   uint32_t dynamicCount, const uint32_t* dynamic) {
  reads().Bytes(sets, count * sizeof *sets);
  reads().Bytes(dynamic, dynamicCount * sizeof *dynamic);
}
void VKAPI_CALL PushConstants(VkCommandBuffer, VkPipelineLayout, VkShaderStageFlags, uint32_t, uint32_t size, const void* values) { reads().Bytes(values, size); }
void VKAPI_CALL Dispatch(VkCommandBuffer, uint32_t x, uint32_t y, uint32_t z) { reads().sum += x + y + z; }
void VKAPI_CALL PipelineBarrier(VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags, VkDependencyFlags, uint32_t memoryCount,
                                const VkMemoryBarrier* memory, uint32_t bufferCount, const VkBufferMemoryBarrier* buffers, uint32_t imageCount,
                                const VkImageMemoryBarrier* images) {
  reads().Bytes(memory, memoryCount * sizeof *memory);
  reads().Bytes(buffers, bufferCount * sizeof *buffers);
  reads().Bytes(images, imageCount * sizeof *images);
}
void VKAPI_CALL CopyBuffer(VkCommandBuffer, VkBuffer, VkBuffer, uint32_t count, const VkBufferCopy* regions) { reads().Bytes(regions, count * sizeof *regions); }
void VKAPI_CALL ClearColorImage(VkCommandBuffer, VkImage, VkImageLayout, const VkClearColorValue* color, uint32_t count, const VkImageSubresourceRange* ranges) {
  reads().Bytes(color, sizeof *color);
  reads().Bytes(ranges, count * sizeof *ranges);
}

// Walked commands: each reads every element its arrays and structures point at.
void VKAPI_CALL BindVertexBuffers(VkCommandBuffer, uint32_t, uint32_t count, const VkBuffer* buffers, const VkDeviceSize* offsets) {
  reads().Bytes(buffers, count * sizeof *buffers);
  reads().Bytes(offsets, count * sizeof *offsets);
}
void VKAPI_CALL SetViewport(VkCommandBuffer, uint32_t, uint32_t count, const VkViewport* v) { reads().Bytes(v, count * sizeof *v); }
void VKAPI_CALL SetScissor(VkCommandBuffer, uint32_t, uint32_t count, const VkRect2D* r) { reads().Bytes(r, count * sizeof *r); }
void VKAPI_CALL BeginRendering(VkCommandBuffer, const VkRenderingInfo* info) {
  reads().Bytes(info, sizeof *info);
  reads().Bytes(info->pColorAttachments, info->colorAttachmentCount * sizeof *info->pColorAttachments);
  if (info->pDepthAttachment != nullptr) reads().Bytes(info->pDepthAttachment, sizeof *info->pDepthAttachment);
  if (info->pStencilAttachment != nullptr) reads().Bytes(info->pStencilAttachment, sizeof *info->pStencilAttachment);
}
void VKAPI_CALL BeginRenderPass(VkCommandBuffer, const VkRenderPassBeginInfo* info, VkSubpassContents) {
  reads().Bytes(info, sizeof *info);
  reads().Bytes(info->pClearValues, info->clearValueCount * sizeof *info->pClearValues);
}
void VKAPI_CALL PipelineBarrier2(VkCommandBuffer, const VkDependencyInfo* d) {
  reads().Bytes(d, sizeof *d);
  reads().Bytes(d->pMemoryBarriers, d->memoryBarrierCount * sizeof *d->pMemoryBarriers);
  reads().Bytes(d->pBufferMemoryBarriers, d->bufferMemoryBarrierCount * sizeof *d->pBufferMemoryBarriers);
  reads().Bytes(d->pImageMemoryBarriers, d->imageMemoryBarrierCount * sizeof *d->pImageMemoryBarriers);
}
void VKAPI_CALL CopyBufferToImage(VkCommandBuffer, VkBuffer, VkImage, VkImageLayout, uint32_t count, const VkBufferImageCopy* r) { reads().Bytes(r, count * sizeof *r); }
void VKAPI_CALL UpdateBuffer(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize size, const void* data) { reads().Bytes(data, static_cast<std::size_t>(size)); }

// The generated opcodes' commands: each reads its arguments.
template <typename... A>
void VKAPI_CALL ReadArgs(VkCommandBuffer, A... a) {
  (reads().Bytes(&a, sizeof a), ...);
}
template <typename... A>
void Assign(void(VKAPI_PTR*& slot)(VkCommandBuffer, A...)) {
  slot = &ReadArgs<A...>;
}

uint32_t ReadU32(const std::vector<unsigned char>& in, std::size_t& at) {
  uint32_t v = 0;
  if (at + 4 > in.size()) throw std::runtime_error("input ends inside a case");
  std::memcpy(&v, in.data() + at, 4);
  at += 4;
  return v;
}

// ValidateFor with Starts (the encoder's noted commands) on this case, five ways: the starts its headers
// give (every command but the two run commands'; a stream accepted must be accepted alike), those with one
// start moved a word on, every word noted, one noted command dropped, and the same starts with only the
// first run header allowed (a gap holding the second is not as noted). Unless a verdict is notAsNoted it
// must be Validate's; a disagreement prints a line the test does not expect.
void NotedAgrees(const gen::VkDeviceDispatchTable& dispatch, const std::vector<unsigned char>& stream, const cs::Table& t, const cs::Verdict& plain) {
  const std::size_t words = stream.size() / 4;
  std::vector<uint32_t> w(words);
  if (words > 0) std::memcpy(w.data(), stream.data(), words * 4);
  // The run commands: the first two plain headers of the stream's commands, else any plain header.
  uint32_t run = 0, run2 = 0;
  for (std::size_t at = 0; at < words && (w[at] >> 16) != 0 && run2 == 0; at += w[at] >> 16) {
    if (!cs::IsPlainHeader(w[at])) continue;
    if (run == 0) run = w[at];
    else if (w[at] != run) run2 = w[at];
  }
  for (std::size_t i = 0; i < words && run == 0; ++i) run = cs::IsPlainHeader(w[i]) ? w[i] : 0;
  for (uint32_t h = 0; run == 0 && h < 0x10000; ++h) run = cs::IsPlainHeader((5u << 16) | h) ? (5u << 16) | h : 0;
  if (run2 == 0) run2 = run;
  std::vector<uint32_t> noted;
  bool hasSecond = false;  // a command of run2 (not run) among the walked ones
  for (std::size_t at = 0; at < words && (w[at] >> 16) != 0; at += w[at] >> 16) {
    if (w[at] != run && w[at] != run2) noted.push_back(static_cast<uint32_t>(at));
    hasSecond = hasSecond || (w[at] == run2 && run2 != run);
  }
  std::vector<uint32_t> moved = noted;
  if (!moved.empty()) moved[moved.size() / 2] += 1;
  std::vector<uint32_t> every(words);
  for (std::size_t i = 0; i < words; ++i) every[i] = static_cast<uint32_t>(i);
  // One command that is not a run command left unnoted: in a stream the plain walk accepts, found.
  std::vector<uint32_t> dropped = noted;
  if (!dropped.empty()) dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(dropped.size() / 2));
  const std::vector<uint32_t>* const variants[] = {&noted, &moved, &every, &dropped, &noted};
  const char* const names[] = {"headers", "moved", "every word", "dropped", "one run header"};
  for (std::size_t i = 0; i < 5; ++i) {
    const bool oneHeader = i == 4;
    const std::vector<uint32_t> copy = *variants[i];  // exactly its length on the heap: a read past it is reported
    const cs::Verdict n = cs::ValidateFor(dispatch, stream.data(), stream.size(), t, cs::Starts{copy.data(), copy.size(), {run, oneHeader ? run : run2}});
    const bool same = n.ok == plain.ok && (n.ok ? n.commands == plain.commands : n.reason == plain.reason && n.byteOffset == plain.byteOffset && n.commands == plain.commands);
    // Found not as noted: a dropped command, or with one header allowed, a command of the second one (a stream the plain walk accepts).
    const bool mustNotMatch = plain.ok && ((variants[i] == &dropped && !noted.empty()) || (oneHeader && hasSecond));
    if (n.notAsNoted ? (variants[i] == &noted && plain.ok && !(oneHeader && hasSecond)) : (!same || mustNotMatch)) std::printf("noted disagrees (%s)\n", names[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: replay_fuzz <cases file>\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::vector<unsigned char> in((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  gen::VkDeviceDispatchTable table{};
#define KL_ASSIGN(member) Assign(table.member);
  KL_VK_ENCODED_MEMBERS(KL_ASSIGN)
#undef KL_ASSIGN
  table.CmdBindPipeline = BindPipeline;
  table.CmdBindDescriptorSets = BindDescriptorSets;
  table.CmdPushConstants = PushConstants;
  table.CmdDispatch = Dispatch;
  table.CmdPipelineBarrier = PipelineBarrier;
  table.CmdCopyBuffer = CopyBuffer;
  table.CmdClearColorImage = ClearColorImage;
  table.CmdBindVertexBuffers = BindVertexBuffers;
  table.CmdSetViewport = SetViewport;
  table.CmdSetScissor = SetScissor;
  table.CmdBeginRendering = BeginRendering;
  table.CmdBeginRenderPass = BeginRenderPass;
  table.CmdPipelineBarrier2 = PipelineBarrier2;
  table.CmdCopyBufferToImage = CopyBufferToImage;
  table.CmdUpdateBuffer = UpdateBuffer;
  std::size_t at = 0;
  while (at < in.size()) {
    const uint32_t kindCount = ReadU32(in, at);
    std::vector<uint8_t> kinds(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(at + kindCount));
    at += (kindCount + 3) / 4 * 4;
    const uint32_t bytes = ReadU32(in, at);
    std::vector<unsigned char> stream(in.begin() + static_cast<std::ptrdiff_t>(at), in.begin() + static_cast<std::ptrdiff_t>(at + bytes));
    at += (bytes + 3) / 4 * 4;
    std::vector<uint64_t> handles(kindCount);
    for (uint32_t i = 0; i < kindCount; ++i) handles[i] = 0x1000 + i;
    const cs::Table t{handles.data(), kinds.data(), kinds.size()};
    const cs::Verdict v = cs::Validate(stream.data(), stream.size(), t);
    NotedAgrees(table, stream, t, v);
    if (v.ok) {
      cs::Replay(table, reinterpret_cast<VkCommandBuffer>(&table), stream.data(), stream.size(), t);
      std::printf("ok %u\n", v.commands);
    } else {
      std::printf("refused %s %zu\n", cs::ReasonName(v.reason), v.byteOffset);
    }
  }
  std::fprintf(stderr, "tally %llu\n", static_cast<unsigned long long>(reads().sum));
  return 0;
}

// Encoded command buffers (docs/usage.md, "CommandEncoder"): commands written from JavaScript into one reusable
// ArrayBuffer and replayed here through the device's dispatch table in one call.
//
// The stream is a sequence of 32-bit little-endian words. Each command starts with a header word,
// opcode in bits 0-15 and the command's length in words (the header included) in bits 16-31,
// followed by its arguments. A handle argument is an index into the table bound with the stream:
// the table holds the raw handles and, per slot, the kind of object (HandleKind) the slot holds.
// Every command the typed API (lib/vulkan/api/commands.ts) records has an opcode:
//
//   opcode                 words after the header
//   1 BindPipeline          pipeline#                                      (compute bind point)
//   2 BindDescriptorSet     layout#, set#, firstSet                        (compute bind point)
//   3 PushConstants         layout#, stageFlags, offset, size, size/4 data words
//   4 Dispatch              x, y, z
//   5 PipelineBarrier       srcStage, dstStage, srcAccess, dstAccess       (one VkMemoryBarrier)
//   6 CopyBuffer            src#, dst#, srcOffset lo, hi, dstOffset lo, hi, size lo, hi
//   7 ImageBarrier          image#, oldLayout, newLayout, srcStage, dstStage, srcAccess, dstAccess,
//                           baseArrayLayer, layerCount                     (colour, every mip level)
//   8 ClearColorImage       image#, layout, r, g, b, a (float32 bits), baseArrayLayer, layerCount
//
// (# : a table index). From kOpcodeBase (0x100) on, the opcodes are generated from the registry
// (native/generated/vulkan_encoder.h): one per vkCmd* of Vulkan 1.0-1.4 whose handles a table holds.
// A flat one's arguments are stream words, each one word (VkDeviceSize and other 64-bit values two,
// low first) in the command's parameter order, handles as table indices. A walked one (arrays,
// structures, optional pointers) lays its parameters out in declaration order, each array's
// elements where the array is declared, after its count (the generated header says how). Validate()
// checks the whole stream before Replay() makes any call, the render pass scope too (a draw only
// inside dynamic rendering or a render pass the stream opened, a copy only outside, every one
// closed by the stream's end): a malformed stream is refused with the byte offset of the command at
// fault and why.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vulkan/loader/vk_error.h"

namespace kl::vulkan::command_stream {

enum class Opcode : uint16_t {
  BindPipeline = 1,
  BindDescriptorSet = 2,
  PushConstants = 3,
  Dispatch = 4,
  PipelineBarrier = 5,
  CopyBuffer = 6,
  ImageBarrier = 7,
  ClearColorImage = 8,
};
inline constexpr uint16_t kOpcodeCount = 8;

// What a table slot holds (0: nothing; a command naming it is refused).
enum class HandleKind : uint8_t {
  None = 0,
  Pipeline = 1,  // a compute pipeline (the hand-written opcodes bind at the compute bind point)
  PipelineLayout = 2,
  DescriptorSet = 3,
  Buffer = 4,
  Image = 5,
  GraphicsPipeline = 6,
  ImageView = 7,
  RenderPass = 8,
  Framebuffer = 9,
  QueryPool = 10,
  Event = 11,
};

// Why a stream was refused; the names (ReasonName) are JavaScript's `CommandStreamError.reason`.
enum class Reason : uint8_t {
  Unaligned,        // the stream's byte length is not a multiple of 4
  UnknownOpcode,    // opcode 0 or above kOpcodeCount
  Truncated,        // the header's length runs past the end of the stream (or is 0)
  BadLength,        // the header's length is not the opcode's
  CountPastEnd,     // a count (PushConstants' size, a walked command's array count) says more words than the command holds
  Misaligned,       // PushConstants: offset or size not a multiple of 4, or size 0; a walked byte array not whole words
  HandleIndex,      // a table index past the table's end
  HandleKind,       // a table slot holding another kind of object (or nothing)
  BadValue,         // an image layout the typed API does not take; an enum's value not in the registry, a VkBool32 not 0 or 1, a count of 0 the registry does not allow
  TableMismatch,    // the handle and kind tables differ in length
  RenderPassScope,  // a command the registry allows only inside a render pass (or dynamic rendering) outside one, one it allows only outside inside one,
                    // an end with no matching begin, or a stream that ends with one open
  Unavailable,      // a command the device's dispatch table does not have (a core version above the device's)
};
const char* ReasonName(Reason reason) noexcept;

struct Table {
  const uint64_t* handles = nullptr;
  const uint8_t* kinds = nullptr;
  std::size_t size = 0;
};

struct Verdict {
  bool ok = true;
  uint32_t commands = 0;  // commands in the stream (when ok), or the index of the one at fault
  std::size_t byteOffset = 0;  // where the command at fault starts
  uint16_t opcode = 0;
  Reason reason = Reason::Unaligned;
  // With Starts: the stream is not what its writer noted (a command it did not note that is not its run
  // command, or a noted start where no command starts), found before any refusal; ok is false and the
  // rest says nothing. The caller then checks the stream without Starts.
  bool notAsNoted = false;
};

// Checks every command of `bytes` bytes at `data` (4-byte aligned) against `table`. Makes no call.
Verdict Validate(const void* data, std::size_t bytes, const Table& table) noexcept;

// Validate(), then (for a stream it accepts) that the device's table has every generated command of
// it, in one walk: a malformed stream is refused as Validate() refuses it, a well-formed one with a
// command the table lacks as Unavailable at the first such command.
Verdict ValidateFor(const gen::VkDeviceDispatchTable& dispatch, const void* data, std::size_t bytes, const Table& table) noexcept;

// Where a stream's writer (CommandEncoder, lib/vulkan/api/command-encoder.ts) says its commands start, all
// but those of its run commands (`runHeaders`: vkCmdDraw, vkCmdDrawIndexed), which fill every gap between
// them: the writer's own state walk visits the noted commands and the first of each run, and relies on the
// rest of each gap being run commands of these headers (ValidateFor confirms it, or says notAsNoted). Both
// headers may be the same (a writer that wrote no command of the second).
struct Starts {
  const uint32_t* words = nullptr;  // word offsets, ascending
  std::size_t count = 0;
  uint32_t runHeaders[2] = {0, 0};
};

// Whether `header` is a plain generated command's whole header word (numbers only, no render pass of its
// own: native/generated/vulkan_encoder.h kPlainHeader): one is well formed wherever another is.
bool IsPlainHeader(uint32_t header) noexcept;

// ValidateFor(), and that the stream is as `starts` says (else notAsNoted). `starts.runHeaders` must be
// plain headers. A run of one run command is checked on its first command and its header words.
Verdict ValidateFor(const gen::VkDeviceDispatchTable& dispatch, const void* data, std::size_t bytes, const Table& table, const Starts& starts) noexcept;

// Records a stream Validate() accepted into `commandBuffer` through `dispatch`, the device's
// table (the one the command buffer's first word points at).
void Replay(const gen::VkDeviceDispatchTable& dispatch, VkCommandBuffer commandBuffer, const void* data, std::size_t bytes,
            const Table& table) noexcept;

}  // namespace kl::vulkan::command_stream

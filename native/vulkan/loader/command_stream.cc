#include "vulkan/loader/command_stream.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>

#include "generated/vulkan_encoder.h"

namespace kl::vulkan::command_stream {
namespace {

namespace enc = khronos_loader::generated::vkencoder;

// Each opcode's length in words (header included; PushConstants' is its minimum) and the table
// slots its first arguments name.
struct Shape {
  uint32_t length;
  uint32_t slots;  // how many of the first arguments are table indices (0-2)
  HandleKind kinds[2];
};
constexpr Shape kShape[kOpcodeCount + 1] = {
    {0, 0, {}},
    {2, 1, {HandleKind::Pipeline}},                                   // BindPipeline
    {4, 2, {HandleKind::PipelineLayout, HandleKind::DescriptorSet}},  // BindDescriptorSet
    {5, 1, {HandleKind::PipelineLayout}},                             // PushConstants
    {4, 0, {}},                                                       // Dispatch
    {5, 0, {}},                                                       // PipelineBarrier
    {9, 2, {HandleKind::Buffer, HandleKind::Buffer}},                 // CopyBuffer
    {10, 1, {HandleKind::Image}},                                     // ImageBarrier
    {9, 1, {HandleKind::Image}},                                      // ClearColorImage
};

// VkImageLayout values the typed API takes (lib/vulkan/api/image.ts IMAGE_LAYOUTS).
bool KnownLayout(uint32_t v) { return v <= 7 || v == 1000241000 || v == 1000241001; }
// vkCmdClearColorImage: TRANSFER_DST_OPTIMAL or GENERAL.
bool ClearLayout(uint32_t v) { return v == 1 || v == 7; }

template <typename T>
T As(uint64_t raw) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(raw));
  } else {
    return static_cast<T>(raw);
  }
}

uint64_t U64(const uint32_t* w) { return static_cast<uint64_t>(w[0]) | (static_cast<uint64_t>(w[1]) << 32); }

float F32(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

const char* ReasonName(Reason reason) noexcept {
  switch (reason) {
    case Reason::Unaligned: return "unaligned";
    case Reason::UnknownOpcode: return "unknown-opcode";
    case Reason::Truncated: return "truncated";
    case Reason::BadLength: return "bad-length";
    case Reason::CountPastEnd: return "count-past-end";
    case Reason::Misaligned: return "misaligned";
    case Reason::HandleIndex: return "handle-index";
    case Reason::HandleKind: return "handle-kind";
    case Reason::BadValue: return "bad-value";
    case Reason::TableMismatch: return "table-mismatch";
    case Reason::RenderPassScope: return "render-pass-scope";
    case Reason::Unavailable: return "unavailable";
  }
  return "unknown";
}

namespace {

constexpr uint32_t LengthOf(Opcode opcode) { return kShape[static_cast<uint16_t>(opcode)].length; }
constexpr uint32_t HeaderOf(Opcode opcode) { return static_cast<uint32_t>(opcode) | (LengthOf(opcode) << 16); }

// The longest command of fixed length: this far from the stream's end, any of them fits.
constexpr std::size_t kLongestFixed = 10;
static_assert([] {
  for (uint16_t op = 1; op <= kOpcodeCount; ++op) {
    if (static_cast<Opcode>(op) != Opcode::PushConstants && kShape[op].length > kLongestFixed) return false;
  }
  return true;
}(), "kLongestFixed must be the longest command of fixed length");

// Which generated commands the device's table has (bit i: kCommands[i]), and the first command of
// the stream whose bit is clear: Validate() notes it and goes on, so that a malformed command
// anywhere is reported first, as a separate walk after the check would.
struct Availability {
  uint64_t bits[(enc::kCommandCount + 63) / 64];
  const uint32_t* missingAt = nullptr;
  uint32_t missingIndex = 0;  // commands before it
  bool Has(uint32_t index) const noexcept { return ((bits[index / 64] >> (index % 64)) & 1) != 0; }
  void Note(uint32_t index, const uint32_t* at, uint32_t commands) noexcept {
    if (!Has(index) && missingAt == nullptr) {
      missingAt = at;
      missingIndex = commands;
    }
  }
};
Availability AllAvailable() noexcept {
  Availability a{};
  for (uint64_t& b : a.bits) b = ~uint64_t{0};
  return a;
}
Availability AvailableIn(const gen::VkDeviceDispatchTable& d) noexcept {
  Availability a{};
  for (uint16_t i = 0; i < enc::kCommandCount; ++i) {
    if (enc::Available(d, i)) a.bits[i / 64] |= uint64_t{1} << (i % 64);
  }
  return a;
}

// The render pass scope a stream is in while it is walked (Vulkan spec, 'Render Pass' and 'Dynamic
// Rendering'): 0 none, 1 dynamic rendering, 2 a render pass; where the open one began.
struct Scope {
  uint32_t open = 0;
  const uint32_t* openedAt = nullptr;
};

// Whether command `c` at `at` may be recorded in scope `s` (the registry's `renderpass`, and the
// begin/end pairs), and the scope after it.
bool InScope(const enc::Command& c, const uint32_t* at, Scope& s) noexcept {
  if (c.renderPass == enc::RenderPass::Inside && s.open == 0) return false;
  if (c.renderPass == enc::RenderPass::Outside && s.open != 0) return false;
  switch (c.scope) {
    case 1:
    case 2:
      s.open = c.scope;
      s.openedAt = at;
      return true;
    case 3:
    case 4:
      if (s.open != c.scope - 2u) return false;
      s.open = 0;
      return true;
    case 5:
      return s.open == 2;
    default:
      return true;
  }
}

Reason ReasonOf(enc::Fault f) noexcept {
  switch (f) {
    case enc::Fault::PastEnd: return Reason::CountPastEnd;
    case enc::Fault::Leftover: return Reason::BadLength;
    case enc::Fault::HandleIndex: return Reason::HandleIndex;
    case enc::Fault::HandleKind: return Reason::HandleKind;
    case enc::Fault::Misaligned: return Reason::Misaligned;
    case enc::Fault::BadValue:
    case enc::Fault::None: break;
  }
  return Reason::BadValue;
}

// The first argument of generated command `c` at `a` (`length` words with the header) that breaks
// the registry's rules (the slot's kind, the enum's values, a VkBool32's 0 or 1; a walked
// command's counts, arrays and structures), or nullopt.
std::optional<Reason> GeneratedArgs(uint16_t index, const enc::Command& c, const uint32_t* a, uint32_t length, const Table& table) noexcept {
  if (c.walked) {
    const enc::Fault f = enc::CheckWalked(index, enc::Reader{a, a + (length - 1)}, enc::Slots{table.kinds, table.size});
    if (f != enc::Fault::None) return ReasonOf(f);
    return std::nullopt;
  }
  for (uint32_t i = 0; i < c.argCount; ++i) {
    const enc::Arg& arg = enc::kArgs[c.firstArg + i];
    const uint32_t v = a[arg.word];
    switch (arg.kind) {
      case enc::ArgKind::Slot:
        if (v >= table.size) return Reason::HandleIndex;
        if (table.kinds[v] >= 16 || ((arg.check >> table.kinds[v]) & 1) == 0) return Reason::HandleKind;
        break;
      case enc::ArgKind::Bool32:
        if (v > 1) return Reason::BadValue;
        break;
      case enc::ArgKind::Enum: {
        const enc::Enum& e = enc::kEnums[arg.check];
        const int32_t* first = enc::kEnumValues + e.firstValue;
        const int32_t* last = first + e.valueCount;
        const int32_t* it = std::lower_bound(first, last, static_cast<int32_t>(v));
        if (it == last || *it != static_cast<int32_t>(v)) return Reason::BadValue;
        break;
      }
      default:
        break;
    }
  }
  return std::nullopt;
}

// A generated command at `at` (opcode past kOpcodeBase): where it ends, or nullptr.
[[gnu::noinline]] const uint32_t* GeneratedEnd(const uint32_t* at, const uint32_t* end, const Table& table, Scope& scope, Availability& available,
                                               uint32_t commands) noexcept {
  const uint32_t header = *at;
  const uint32_t index = (header & 0xffff) - enc::kOpcodeBase;
  if (index >= enc::kCommandCount) return nullptr;
  const enc::Command& c = enc::kCommands[index];
  const uint32_t length = header >> 16;
  if (length == 0 || static_cast<std::size_t>(end - at) < length || (c.words != 0 && length != c.words)) return nullptr;
  if (GeneratedArgs(static_cast<uint16_t>(index), c, at + 1, length, table)) return nullptr;
  Scope after = scope;
  if (!InScope(c, at, after)) return nullptr;
  scope = after;
  available.Note(index, at, commands);
  return at + length;
}

// Whether the registry's `renderpass` of a command lets it be recorded in scope `s` (for the plain
// commands, which neither open nor close one).
inline bool RenderPassAllows(enc::RenderPass where, const Scope& s) noexcept {
  return where == enc::RenderPass::Both || (where == enc::RenderPass::Inside) == (s.open != 0);
}

// Where the command at `at` ends when it is well-formed, nullptr when it is not (WhyRefused() then
// says why). It switches on the opcode, compares the whole header word with the one that command
// must have and advances by that case's constant length, so the walk's next load waits on a
// predicted branch rather than on this header's load: the commands are checked side by side
// instead of one load after another. kRoomForAny: the caller knows that kLongestFixed words are
// left, so a command of fixed length needs no check of its own that it ends inside the stream.
template <bool kRoomForAny>
inline const uint32_t* WellFormedEnd(const uint32_t* at, const uint32_t* end, const Table& table, Scope& scope, Availability& available,
                                     uint32_t commands) noexcept {
  const auto left = static_cast<std::size_t>(end - at);
  const uint32_t header = *at;
  auto is = [&](uint32_t index, HandleKind kind) { return index < table.size && table.kinds[index] == static_cast<uint8_t>(kind); };
  auto fixed = [&](Opcode opcode) { return header == HeaderOf(opcode) && (kRoomForAny || left >= LengthOf(opcode)); };
  switch (static_cast<Opcode>(header & 0xffff)) {
    case Opcode::BindPipeline:
      return fixed(Opcode::BindPipeline) && is(at[1], HandleKind::Pipeline) ? at + LengthOf(Opcode::BindPipeline) : nullptr;
    case Opcode::BindDescriptorSet:
      return fixed(Opcode::BindDescriptorSet) && is(at[1], HandleKind::PipelineLayout) && is(at[2], HandleKind::DescriptorSet) ? at + LengthOf(Opcode::BindDescriptorSet) : nullptr;
    case Opcode::PushConstants: {
      // Its length is its data's, so this advance does wait on the header.
      const uint32_t length = header >> 16;
      if (length < 5 || length > left) return nullptr;
      const uint32_t offset = at[3], size = at[4];
      return is(at[1], HandleKind::PipelineLayout) && size != 0 && (size | offset) % 4 == 0 && size / 4 == length - 5 ? at + length : nullptr;
    }
    case Opcode::Dispatch:  // Dispatch, CopyBuffer and ClearColorImage: outside a render pass (the registry's renderpass)
      return fixed(Opcode::Dispatch) && scope.open == 0 ? at + LengthOf(Opcode::Dispatch) : nullptr;
    case Opcode::PipelineBarrier:
      return fixed(Opcode::PipelineBarrier) ? at + LengthOf(Opcode::PipelineBarrier) : nullptr;
    case Opcode::CopyBuffer:
      return fixed(Opcode::CopyBuffer) && scope.open == 0 && is(at[1], HandleKind::Buffer) && is(at[2], HandleKind::Buffer) ? at + LengthOf(Opcode::CopyBuffer) : nullptr;
    case Opcode::ImageBarrier:
      return fixed(Opcode::ImageBarrier) && is(at[1], HandleKind::Image) && KnownLayout(at[2]) && KnownLayout(at[3]) ? at + LengthOf(Opcode::ImageBarrier) : nullptr;
    case Opcode::ClearColorImage:
      return fixed(Opcode::ClearColorImage) && scope.open == 0 && is(at[1], HandleKind::Image) && ClearLayout(at[2]) ? at + LengthOf(Opcode::ClearColorImage) : nullptr;
  }
  // A plain generated command (numbers only, no scope of its own: a draw, a dispatch, most dynamic
  // state) is whole when its header is the one it must have, it fits, and the scope allows it;
  // the others are checked argument by argument, out of line.
  const uint32_t index = (header & 0xffff) - enc::kOpcodeBase;  // (wraps round below the base)
  if (index < enc::kCommandCount && header == enc::kPlainHeader[index] && (header >> 16) <= left &&
      RenderPassAllows(enc::kCommands[index].renderPass, scope)) [[likely]] {
    available.Note(index, at, commands);
    return at + (header >> 16);
  }
  return (header & 0xffff) >= enc::kOpcodeBase ? GeneratedEnd(at, end, table, scope, available, commands) : nullptr;
}

// Why the command at `at`, which WellFormedEnd() did not accept, is refused (nullopt: it is
// well-formed after all). Out of line and cold, so that the walk over well-formed commands stays a
// short loop of its own.
[[gnu::noinline, gnu::cold]] std::optional<Reason> WhyRefused(const uint32_t* at, const uint32_t* end, const Table& table, const Scope& scope) noexcept {
  auto slot = [&](uint32_t index, HandleKind kind) -> std::optional<Reason> {
    if (index >= table.size) return Reason::HandleIndex;
    if (table.kinds[index] != static_cast<uint8_t>(kind)) return Reason::HandleKind;
    return std::nullopt;
  };
  const uint32_t header = *at;
  const uint16_t opcode = static_cast<uint16_t>(header & 0xffff);
  const uint32_t length = header >> 16;
  if (opcode >= enc::kOpcodeBase && opcode - enc::kOpcodeBase < enc::kCommandCount) {
    const enc::Command& c = enc::kCommands[opcode - enc::kOpcodeBase];
    if (length == 0 || length > static_cast<std::size_t>(end - at)) return Reason::Truncated;
    if (c.words != 0 && length != c.words) return Reason::BadLength;
    if (const std::optional<Reason> bad = GeneratedArgs(static_cast<uint16_t>(opcode - enc::kOpcodeBase), c, at + 1, length, table)) return bad;
    Scope after = scope;
    if (!InScope(c, at, after)) return Reason::RenderPassScope;
    return std::nullopt;
  }
  if (opcode == 0 || opcode > kOpcodeCount) return Reason::UnknownOpcode;
  if (length == 0 || length > static_cast<std::size_t>(end - at)) return Reason::Truncated;
  const Shape& shape = kShape[opcode];
  const uint32_t* a = at + 1;  // the arguments
  if (static_cast<Opcode>(opcode) == Opcode::PushConstants) {
    if (length < shape.length) return Reason::BadLength;
    const uint32_t offset = a[2], size = a[3];
    if (size == 0 || size % 4 != 0 || offset % 4 != 0) return Reason::Misaligned;
    if (size / 4 > length - shape.length) return Reason::CountPastEnd;
    if (size / 4 != length - shape.length) return Reason::BadLength;
  } else if (length != shape.length) {
    return Reason::BadLength;
  }
  std::optional<Reason> bad;
  if (shape.slots >= 1) bad = slot(a[0], shape.kinds[0]);
  if (!bad && shape.slots == 2) bad = slot(a[1], shape.kinds[1]);
  if (bad) return bad;
  if (static_cast<Opcode>(opcode) == Opcode::ImageBarrier && (!KnownLayout(a[1]) || !KnownLayout(a[2]))) return Reason::BadValue;
  if (static_cast<Opcode>(opcode) == Opcode::ClearColorImage && !ClearLayout(a[1])) return Reason::BadValue;
  const auto op = static_cast<Opcode>(opcode);
  if (scope.open != 0 && (op == Opcode::Dispatch || op == Opcode::CopyBuffer || op == Opcode::ClearColorImage)) return Reason::RenderPassScope;
  return std::nullopt;
}

}  // namespace

namespace {

// The verdict refusing the command at `at` (the `commands`-th) for `reason`.
Verdict Refused(const uint32_t* begin, Reason reason, const uint32_t* at, uint32_t commands) noexcept {
  Verdict v;
  v.ok = false;
  v.commands = commands;
  v.reason = reason;
  v.byteOffset = static_cast<std::size_t>(at - begin) * 4;
  v.opcode = static_cast<uint16_t>(reason == Reason::Unaligned ? 0 : *at & 0xffff);
  return v;
}

// The end of a walk over a stream with no malformed command: a render pass left open, or a command the
// device's table lacks, refused; else the count of commands.
Verdict Finish(const uint32_t* begin, const Scope& scope, const Availability& available, uint32_t commands) noexcept {
  Verdict v;
  auto refuse = [&](Reason reason, const uint32_t* at, uint32_t index) { return Refused(begin, reason, at, index); };
  if (scope.open != 0) {
    // A render pass or dynamic rendering left open: vkEndCommandBuffer would be invalid
    // (VUID-vkEndCommandBuffer-commandBuffer-00060); refused at the command that opened it.
    uint32_t index = 0;
    for (const uint32_t* w = begin; w < scope.openedAt; w += *w >> 16) ++index;
    return refuse(Reason::RenderPassScope, scope.openedAt, index);
  }
  if (available.missingAt != nullptr) {
    // Well formed, with a command the device's table lacks: refused at the first one.
    return refuse(Reason::Unavailable, available.missingAt, available.missingIndex);
  }
  v.commands = commands;
  return v;
}

Verdict Check(const void* data, std::size_t bytes, const Table& table, Availability& available) noexcept {
  const auto* const begin = static_cast<const uint32_t*>(data);
  auto refuse = [&](Reason reason, const uint32_t* at, uint32_t commands) { return Refused(begin, reason, at, commands); };
  if (bytes % 4 != 0 || (bytes > 0 && reinterpret_cast<uintptr_t>(data) % 4 != 0)) return refuse(Reason::Unaligned, begin, 0);
  const uint32_t* at = begin;
  const uint32_t* const end = begin + bytes / 4;
  uint32_t commands = 0;  // a local (a register), not v.commands: no store and reload each command
  Scope scope;
  // Far from the end, the usual commands need no check that they end in the stream.
  const uint32_t* const roomy = bytes / 4 >= kLongestFixed ? end - kLongestFixed : begin;
  while (at < roomy) {
    const uint32_t* next = WellFormedEnd<true>(at, end, table, scope, available, commands);
    if (next == nullptr) [[unlikely]] break;
    at = next;
    ++commands;
  }
  while (at < end) {
    if (const uint32_t* next = WellFormedEnd<false>(at, end, table, scope, available, commands)) [[likely]] {
      at = next;
    } else if (const std::optional<Reason> reason = WhyRefused(at, end, table, scope)) {
      return refuse(*reason, at, commands);
    } else {
      at += *at >> 16;  // (not reached: WellFormedEnd accepts every well-formed command)
    }
    ++commands;
  }
  return Finish(begin, scope, available, commands);
}

// Check() of a stream whose writer noted where its commands start (Starts): the same verdicts, and
// notAsNoted where the stream is not as noted before any refusal. A gap between noted commands is runs of
// the run commands: the first of each run is checked as any command, the rest on their header words alone
// (a plain command is well formed wherever another is, and a run changes no scope), in a loop that stops
// at the next noted start or another header.
Verdict CheckNoted(const void* data, std::size_t bytes, const Table& table, Availability& available, const Starts& starts) noexcept {
  const auto* const begin = static_cast<const uint32_t*>(data);
  Verdict v;
  auto refuse = [&](Reason reason, const uint32_t* at, uint32_t commands) { return Refused(begin, reason, at, commands); };
  auto notAsNoted = [&] {
    v.ok = false;
    v.notAsNoted = true;
    return v;
  };
  if (bytes % 4 != 0 || (bytes > 0 && reinterpret_cast<uintptr_t>(data) % 4 != 0)) return refuse(Reason::Unaligned, begin, 0);
  const std::size_t words = bytes / 4;
  const uint32_t* at = begin;
  const uint32_t* const end = begin + words;
  const uint32_t run0 = starts.runHeaders[0];
  const uint32_t run1 = starts.runHeaders[1];
  uint32_t commands = 0;
  Scope scope;
  auto step = [&](const uint32_t* here) -> const uint32_t* {  // one command checked as Check() does; nullptr when refused
    if (const uint32_t* next = WellFormedEnd<false>(here, end, table, scope, available, commands)) [[likely]] return next;
    return WhyRefused(here, end, table, scope) ? nullptr : here + (*here >> 16);
  };
  for (std::size_t k = 0;; ++k) {
    const std::size_t noted = k < starts.count ? starts.words[k] : words;
    if (noted > words || (k < starts.count && k > 0 && noted <= starts.words[k - 1])) return notAsNoted();
    const uint32_t* const stop = begin + noted;
    while (at < stop) {
      // A gap: runs of the run commands, up to the next noted start.
      const uint32_t run = *at;
      if (run != run0 && run != run1) return notAsNoted();
      const uint32_t* next = step(at);
      if (next == nullptr) return refuse(*WhyRefused(at, end, table, scope), at, commands);
      ++commands;
      at = next;
      const uint32_t runLength = run >> 16;
      const uint32_t* const first = at;
      while (at < stop && *at == run) at += runLength;
      commands += static_cast<uint32_t>((at - first) / runLength);
    }
    if (at != stop) return notAsNoted();  // (past it: a noted start inside a command)
    if (k >= starts.count) break;  // (stop was the stream's end)
    // A noted command.
    const uint32_t* next = step(at);
    if (next == nullptr) return refuse(*WhyRefused(at, end, table, scope), at, commands);
    ++commands;
    at = next;
  }
  return Finish(begin, scope, available, commands);
}

}  // namespace

Verdict Validate(const void* data, std::size_t bytes, const Table& table) noexcept {
  Availability all = AllAvailable();
  return Check(data, bytes, table, all);
}

Verdict ValidateFor(const gen::VkDeviceDispatchTable& dispatch, const void* data, std::size_t bytes, const Table& table) noexcept {
  Availability available = AvailableIn(dispatch);
  return Check(data, bytes, table, available);
}

Verdict ValidateFor(const gen::VkDeviceDispatchTable& dispatch, const void* data, std::size_t bytes, const Table& table, const Starts& starts) noexcept {
  Availability available = AvailableIn(dispatch);
  return CheckNoted(data, bytes, table, available, starts);
}

bool IsPlainHeader(uint32_t header) noexcept {
  const uint32_t index = (header & 0xffff) - enc::kOpcodeBase;
  return index < enc::kCommandCount && header != 0 && header == enc::kPlainHeader[index];
}

void Replay(const gen::VkDeviceDispatchTable& d, VkCommandBuffer cb, const void* data, std::size_t bytes, const Table& table) noexcept {
  const auto* words = static_cast<const uint32_t*>(data);
  const std::size_t count = bytes / 4;
  const uint64_t* h = table.handles;
  enc::Arena arena;  // the structures walked commands are recorded with (on this stack; the heap only for a command that needs more)
  std::size_t at = 0;
  // Each case advances by its command's own length (push constants' excepted), as Validate's walk
  // does: the next command's words are read while this one's call is made (1.8 ns a command
  // against 2.2 when every advance waited on its header).
  while (at < count) {
    const uint32_t header = words[at];
    const uint32_t* a = words + at + 1;
    switch (static_cast<Opcode>(header & 0xffff)) {
      case Opcode::BindPipeline:
        d.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, As<VkPipeline>(h[a[0]]));
        at += LengthOf(Opcode::BindPipeline);
        break;
      case Opcode::BindDescriptorSet: {
        const VkDescriptorSet set = As<VkDescriptorSet>(h[a[1]]);
        d.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, As<VkPipelineLayout>(h[a[0]]), a[2], 1, &set, 0, nullptr);
        at += LengthOf(Opcode::BindDescriptorSet);
        break;
      }
      case Opcode::PushConstants:
        d.CmdPushConstants(cb, As<VkPipelineLayout>(h[a[0]]), a[1], a[2], a[3], a + 4);
        at += header >> 16;
        break;
      case Opcode::Dispatch:
        d.CmdDispatch(cb, a[0], a[1], a[2]);
        at += LengthOf(Opcode::Dispatch);
        break;
      case Opcode::PipelineBarrier: {
        VkMemoryBarrier barrier{};
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
        barrier.srcAccessMask = a[2];
        barrier.dstAccessMask = a[3];
        d.CmdPipelineBarrier(cb, a[0], a[1], 0, 1, &barrier, 0, nullptr, 0, nullptr);
        at += LengthOf(Opcode::PipelineBarrier);
        break;
      }
      case Opcode::CopyBuffer: {
        const VkBufferCopy region{U64(a + 2), U64(a + 4), U64(a + 6)};
        d.CmdCopyBuffer(cb, As<VkBuffer>(h[a[0]]), As<VkBuffer>(h[a[1]]), 1, &region);
        at += LengthOf(Opcode::CopyBuffer);
        break;
      }
      case Opcode::ImageBarrier: {
        VkImageMemoryBarrier barrier{};
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        barrier.image = As<VkImage>(h[a[0]]);
        barrier.oldLayout = static_cast<VkImageLayout>(a[1]);
        barrier.newLayout = static_cast<VkImageLayout>(a[2]);
        barrier.srcAccessMask = a[5];
        barrier.dstAccessMask = a[6];
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, a[7], a[8]};
        d.CmdPipelineBarrier(cb, a[3], a[4], 0, 0, nullptr, 0, nullptr, 1, &barrier);
        at += LengthOf(Opcode::ImageBarrier);
        break;
      }
      case Opcode::ClearColorImage: {
        VkClearColorValue color{};
        for (int i = 0; i < 4; ++i) color.float32[i] = F32(a[2 + i]);
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, a[6], a[7]};
        d.CmdClearColorImage(cb, As<VkImage>(h[a[0]]), static_cast<VkImageLayout>(a[1]), &color, 1, &range);
        at += LengthOf(Opcode::ClearColorImage);
        break;
      }
      default:  // Validate() accepted the stream: every other opcode is a generated one (a flat one's call is inlined here)
        enc::Replay(d, cb, static_cast<uint16_t>((header & 0xffff) - enc::kOpcodeBase), a, words + at + (header >> 16), h, arena);
        at += header >> 16;
        break;
    }
  }
}

}  // namespace kl::vulkan::command_stream

// Encoded command buffers from JavaScript (docs/usage.md, "CommandEncoder"; the format is in vulkan/loader/command_stream.h):
// `vulkanCommandStream`.
//   validate(stream: ArrayBuffer, byteLength, kinds: Uint8Array): the number of commands, or
//     throws an Error with code 'KL_COMMAND_STREAM' and reason, byteOffset, opcode, commandIndex.
//   record(commandBuffer: bigint, beginFlags, stream, byteLength, handles: BigUint64Array, kinds):
//     validates the whole stream, and only then vkBeginCommandBuffer, every command, and
//     vkEndCommandBuffer through the command buffer's device dispatch table; the number of commands.
//   cLoop(commandBuffer, pipeline, layout, set, commands, frames): the benchmark's baseline, the
//     same mix of commands as `bench vulkan --command record` records from JavaScript, in a C
//     loop through the loader's exported vkCmd* functions; mean wall nanoseconds per frame.
#pragma once

#include <napi.h>

namespace kl::napi {

Napi::Object VulkanCommandStreamFunctions(Napi::Env env);

}  // namespace kl::napi

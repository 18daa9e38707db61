// SAXPY: y = a * x + y over n floats. A grid-stride loop, so any number of work groups covers any n.
// Built to saxpy.spv by scripts/build-shaders.sh (glslangValidator from Debian's glslang-tools).
#version 450

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };

layout(push_constant) uniform Params {
  float a;
  uint n;
} params;

void main() {
  uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < params.n; i += stride) {
    y[i] = params.a * x[i] + y[i];
  }
}

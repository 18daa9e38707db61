// One eye's image of examples/vulkan-frame-loop.ts --compute (and of the compute-rendered XR
// tests): diagonal bands that move with the frame number, red and green from the position, blue
// from the eye. Written to the swapchain image as a storage image (layout GENERAL).
#version 450

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0, rgba8) uniform writeonly image2D eyeImage;

layout(push_constant) uniform Frame {
  uint frame;
  uint eye;
} pc;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(eyeImage);
  if (p.x >= size.x || p.y >= size.y) return;
  uint r = (pc.frame * 3u + 17u + uint(p.x)) & 255u;
  uint g = (pc.frame * 7u + pc.eye * 128u + uint(p.y)) & 255u;
  uint b = pc.eye == 0u ? 64u : 192u;
  imageStore(eyeImage, p, vec4(r, g, b, 255u) / 255.0);
}

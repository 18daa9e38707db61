// Position (transformed by the push-constant matrix) and a per-vertex colour: the typed Vulkan
// API's graphics tests (test/system/vulkan-graphics.test.ts) draw triangles and cubes with it.
#version 450
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inColor;
layout(push_constant) uniform Transform { mat4 mvp; } transform;
layout(location = 0) out vec3 color;
void main() {
  gl_Position = transform.mvp * vec4(inPosition, 1.0);
  color = inColor;
}

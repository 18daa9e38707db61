// The XR scene's vertex shader (examples/xr-scene.ts): a position and normal in model space, a
// per-vertex colour, and per draw (push constants) the model-view-projection matrix of the eye
// and the model matrix (rotation and translation only, so it turns normals too).
#version 450
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inColor;
layout(push_constant) uniform Draw { mat4 mvp; mat4 model; } draw;
layout(location = 0) out vec3 normal;
layout(location = 1) out vec3 color;
void main() {
  gl_Position = draw.mvp * vec4(inPosition, 1.0);
  normal = mat3(draw.model) * inNormal;
  color = inColor;
}

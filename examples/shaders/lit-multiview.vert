// The XR scene's vertex shader for both eyes in one pass (multiview, examples/xr-scene.ts): the
// same inputs as lit.vert; per frame (a uniform buffer) each view's view-projection matrix, chosen
// by gl_ViewIndex, and per draw (push constants) the model matrix (rotation, translation and a
// uniform scale, so it turns normals too).
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inColor;
layout(set = 0, binding = 0) uniform Views { mat4 viewProjection[2]; } views;
layout(push_constant) uniform Draw { mat4 model; } draw;
layout(location = 0) out vec3 normal;
layout(location = 1) out vec3 color;
void main() {
  gl_Position = views.viewProjection[gl_ViewIndex] * (draw.model * vec4(inPosition, 1.0));
  normal = mat3(draw.model) * inNormal;
  color = inColor;
}

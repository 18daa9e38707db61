// A 2D position and texture coordinates, passed through.
#version 450
layout(location = 0) in vec2 inPosition;
layout(location = 1) in vec2 inUv;
layout(location = 0) out vec2 uv;
void main() {
  gl_Position = vec4(inPosition, 0.0, 1.0);
  uv = inUv;
}

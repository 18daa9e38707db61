// Multiview (one draw, several views): view 0 gets the vertex colour, view 1 its channels reversed
// (blue, green, red), so each layer of the target shows which view drew it.
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inColor;
layout(location = 0) out vec3 color;
void main() {
  gl_Position = vec4(inPosition, 1.0);
  color = gl_ViewIndex == 0 ? inColor : inColor.bgr;
}

// The XR scene's fragment shader: the vertex colour lit by one directional light from above and
// to the side, plus ambient light (Lambert).
#version 450
layout(location = 0) in vec3 normal;
layout(location = 1) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
  const vec3 toLight = normalize(vec3(0.4, 1.0, 0.3));
  float diffuse = max(dot(normalize(normal), toLight), 0.0);
  outColor = vec4(color * (0.35 + 0.65 * diffuse), 1.0);
}

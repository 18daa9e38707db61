#include "bundled/simxr/config.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

namespace simxr {
namespace {

const char* systemGetenv(const char* name) { return std::getenv(name); }

/** A whole-string decimal number, or nothing. */
std::optional<double> parseNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<uint32_t> parseDimension(std::string_view text) {
  auto value = parseNumber(text);
  if (!value || *value < 1 || *value > 16384 || std::floor(*value) != *value) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

}  // namespace

int64_t SimConfig::periodNs() const { return static_cast<int64_t>(std::llround(1e9 / displayHz)); }

ConfigResult readSimConfig(const char* (*getenv)(const char*)) {
  if (getenv == nullptr) getenv = systemGetenv;
  SimConfig config;
  auto fail = [](std::string message) { return ConfigResult{std::nullopt, std::move(message)}; };

  if (const char* hz = getenv("SIMXR_DISPLAY_HZ"); hz != nullptr && *hz != '\0') {
    auto value = parseNumber(hz);
    if (!value || *value < 1.0 || *value > 1000.0) {
      return fail(std::string("SIMXR_DISPLAY_HZ='") + hz + "': expected a number of hertz between 1 and 1000");
    }
    config.displayHz = *value;
  }
  if (const char* blocks = getenv("SIMXR_WAIT_FRAME_BLOCKS"); blocks != nullptr && *blocks != '\0') {
    const std::string_view text(blocks);
    if (text != "0" && text != "1") return fail(std::string("SIMXR_WAIT_FRAME_BLOCKS='") + blocks + "': expected 1 (xrWaitFrame paces) or 0 (it returns at once)");
    config.waitFrameBlocks = text == "1";
  }
  if (const char* times = getenv("SIMXR_WAIT_FRAME_TIMES"); times != nullptr && *times != '\0') {
    const std::string_view text(times);
    if (text != "0" && text != "1") return fail(std::string("SIMXR_WAIT_FRAME_TIMES='") + times + "': expected 1 (display times) or 0 (predictedDisplayTime 0)");
    config.waitFrameTimes = text == "1";
  }
  if (const char* file = getenv("SIMXR_BLOCKED_WAIT_FILE"); file != nullptr) config.blockedWaitFile = file;
  if (const char* resolution = getenv("SIMXR_RESOLUTION"); resolution != nullptr && *resolution != '\0') {
    std::string_view text(resolution);
    const auto x = text.find('x');
    auto width = x == std::string_view::npos ? std::nullopt : parseDimension(text.substr(0, x));
    auto height = x == std::string_view::npos ? std::nullopt : parseDimension(text.substr(x + 1));
    if (!width || !height) {
      return fail(std::string("SIMXR_RESOLUTION='") + resolution +
                  "': expected WIDTHxHEIGHT in pixels per eye, each 1..16384 (e.g. 1832x1920)");
    }
    config.viewWidth = *width;
    config.viewHeight = *height;
  }
  if (const char* fov = getenv("SIMXR_FOV_DEG"); fov != nullptr && *fov != '\0') {
    std::string_view text(fov);
    const auto x = text.find('x');
    auto horizontal = parseNumber(x == std::string_view::npos ? text : text.substr(0, x));
    auto vertical = x == std::string_view::npos ? horizontal : parseNumber(text.substr(x + 1));
    auto inRange = [](const std::optional<double>& v) { return v && *v > 0.0 && *v < 180.0; };
    if (!inRange(horizontal) || !inRange(vertical)) {
      return fail(std::string("SIMXR_FOV_DEG='") + fov +
                  "': expected degrees per eye, one number or HORIZONTALxVERTICAL, each in (0, 180)");
    }
    config.horizontalFovDeg = *horizontal;
    config.verticalFovDeg = *vertical;
  }
  if (const char* ipd = getenv("SIMXR_IPD_M"); ipd != nullptr && *ipd != '\0') {
    auto value = parseNumber(ipd);
    if (!value || *value < 0.0 || *value > 0.2) {
      return fail(std::string("SIMXR_IPD_M='") + ipd + "': expected metres between 0 and 0.2");
    }
    config.ipdMeters = *value;
  }
  if (const char* controller = getenv("SIMXR_CONTROLLER"); controller != nullptr && *controller != '\0') {
    const std::string_view name(controller);
    if (name == "simple") {
      config.controller = Profile::Simple;
    } else if (name == "touch") {
      config.controller = Profile::Touch;
    } else if (name == "index") {
      config.controller = Profile::Index;
    } else {
      return fail(std::string("SIMXR_CONTROLLER='") + controller + "': expected simple, touch or index");
    }
  }
  if (const char* area = getenv("SIMXR_PLAY_AREA_M"); area != nullptr && *area != '\0') {
    std::string_view text(area);
    const auto x = text.find('x');
    auto width = x == std::string_view::npos ? std::nullopt : parseNumber(text.substr(0, x));
    auto depth = x == std::string_view::npos ? std::nullopt : parseNumber(text.substr(x + 1));
    auto inRange = [](const std::optional<double>& v) { return v && *v > 0.0 && *v <= 100.0; };
    if (!inRange(width) || !inRange(depth)) {
      return fail(std::string("SIMXR_PLAY_AREA_M='") + area + "': expected WIDTHxDEPTH in metres, each in (0, 100] (e.g. 3x2.5)");
    }
    config.playAreaWidth = static_cast<float>(*width);
    config.playAreaDepth = static_cast<float>(*depth);
  }
  if (const char* grid = getenv("SIMXR_READBACK_GRID"); grid != nullptr && *grid != '\0') {
    const std::string_view text(grid);
    const size_t x = text.find('x');
    auto columns = x == std::string_view::npos ? std::nullopt : parseDimension(text.substr(0, x));
    auto rows = x == std::string_view::npos ? std::nullopt : parseDimension(text.substr(x + 1));
    if (!columns || !rows || *columns > SimConfig::kMaxReadbackGrid || *rows > SimConfig::kMaxReadbackGrid) {
      return fail(std::string("SIMXR_READBACK_GRID='") + grid + "': expected COLUMNSxROWS, each an integer from 1 to 64 (e.g. 16x16)");
    }
    config.readbackColumns = *columns;
    config.readbackRows = *rows;
  }
  if (const char* device = getenv("SIMXR_VULKAN_DEVICE"); device != nullptr) config.vulkanDevice = device;
  return ConfigResult{config, {}};
}

}  // namespace simxr

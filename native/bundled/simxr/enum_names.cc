#include "bundled/simxr/enum_names.h"

#include <cstdio>

namespace simxr {
namespace {

struct EnumName {
  int32_t value;
  const char* name;
};

// The core (OpenXR 1.0 and 1.1) values of XrResult and XrStructureType, as xr.xml 1.1.61 lists
// them. Values are numeric so the table does not depend on which header version is included;
// this runtime enables no extension that adds a result or a structure type (XR_MND_headless
// adds neither).
constexpr EnumName kResults[] = {
    {0, "XR_SUCCESS"},
    {1, "XR_TIMEOUT_EXPIRED"},
    {3, "XR_SESSION_LOSS_PENDING"},
    {4, "XR_EVENT_UNAVAILABLE"},
    {7, "XR_SPACE_BOUNDS_UNAVAILABLE"},
    {8, "XR_SESSION_NOT_FOCUSED"},
    {9, "XR_FRAME_DISCARDED"},
    {-1, "XR_ERROR_VALIDATION_FAILURE"},
    {-2, "XR_ERROR_RUNTIME_FAILURE"},
    {-3, "XR_ERROR_OUT_OF_MEMORY"},
    {-4, "XR_ERROR_API_VERSION_UNSUPPORTED"},
    {-6, "XR_ERROR_INITIALIZATION_FAILED"},
    {-7, "XR_ERROR_FUNCTION_UNSUPPORTED"},
    {-8, "XR_ERROR_FEATURE_UNSUPPORTED"},
    {-9, "XR_ERROR_EXTENSION_NOT_PRESENT"},
    {-10, "XR_ERROR_LIMIT_REACHED"},
    {-11, "XR_ERROR_SIZE_INSUFFICIENT"},
    {-12, "XR_ERROR_HANDLE_INVALID"},
    {-13, "XR_ERROR_INSTANCE_LOST"},
    {-14, "XR_ERROR_SESSION_RUNNING"},
    {-16, "XR_ERROR_SESSION_NOT_RUNNING"},
    {-17, "XR_ERROR_SESSION_LOST"},
    {-18, "XR_ERROR_SYSTEM_INVALID"},
    {-19, "XR_ERROR_PATH_INVALID"},
    {-20, "XR_ERROR_PATH_COUNT_EXCEEDED"},
    {-21, "XR_ERROR_PATH_FORMAT_INVALID"},
    {-22, "XR_ERROR_PATH_UNSUPPORTED"},
    {-23, "XR_ERROR_LAYER_INVALID"},
    {-24, "XR_ERROR_LAYER_LIMIT_EXCEEDED"},
    {-25, "XR_ERROR_SWAPCHAIN_RECT_INVALID"},
    {-26, "XR_ERROR_SWAPCHAIN_FORMAT_UNSUPPORTED"},
    {-27, "XR_ERROR_ACTION_TYPE_MISMATCH"},
    {-28, "XR_ERROR_SESSION_NOT_READY"},
    {-29, "XR_ERROR_SESSION_NOT_STOPPING"},
    {-30, "XR_ERROR_TIME_INVALID"},
    {-31, "XR_ERROR_REFERENCE_SPACE_UNSUPPORTED"},
    {-32, "XR_ERROR_FILE_ACCESS_ERROR"},
    {-33, "XR_ERROR_FILE_CONTENTS_INVALID"},
    {-34, "XR_ERROR_FORM_FACTOR_UNSUPPORTED"},
    {-35, "XR_ERROR_FORM_FACTOR_UNAVAILABLE"},
    {-36, "XR_ERROR_API_LAYER_NOT_PRESENT"},
    {-37, "XR_ERROR_CALL_ORDER_INVALID"},
    {-38, "XR_ERROR_GRAPHICS_DEVICE_INVALID"},
    {-39, "XR_ERROR_POSE_INVALID"},
    {-40, "XR_ERROR_INDEX_OUT_OF_RANGE"},
    {-41, "XR_ERROR_VIEW_CONFIGURATION_TYPE_UNSUPPORTED"},
    {-42, "XR_ERROR_ENVIRONMENT_BLEND_MODE_UNSUPPORTED"},
    {-44, "XR_ERROR_NAME_DUPLICATED"},
    {-45, "XR_ERROR_NAME_INVALID"},
    {-46, "XR_ERROR_ACTIONSET_NOT_ATTACHED"},
    {-47, "XR_ERROR_ACTIONSETS_ALREADY_ATTACHED"},
    {-48, "XR_ERROR_LOCALIZED_NAME_DUPLICATED"},
    {-49, "XR_ERROR_LOCALIZED_NAME_INVALID"},
    {-50, "XR_ERROR_GRAPHICS_REQUIREMENTS_CALL_MISSING"},
    {-51, "XR_ERROR_RUNTIME_UNAVAILABLE"},
    {-1000710001, "XR_ERROR_EXTENSION_DEPENDENCY_NOT_ENABLED"},
    {-1000710000, "XR_ERROR_PERMISSION_INSUFFICIENT"},
};

constexpr EnumName kStructureTypes[] = {
    {0, "XR_TYPE_UNKNOWN"},
    {1, "XR_TYPE_API_LAYER_PROPERTIES"},
    {2, "XR_TYPE_EXTENSION_PROPERTIES"},
    {3, "XR_TYPE_INSTANCE_CREATE_INFO"},
    {4, "XR_TYPE_SYSTEM_GET_INFO"},
    {5, "XR_TYPE_SYSTEM_PROPERTIES"},
    {6, "XR_TYPE_VIEW_LOCATE_INFO"},
    {7, "XR_TYPE_VIEW"},
    {8, "XR_TYPE_SESSION_CREATE_INFO"},
    {9, "XR_TYPE_SWAPCHAIN_CREATE_INFO"},
    {10, "XR_TYPE_SESSION_BEGIN_INFO"},
    {11, "XR_TYPE_VIEW_STATE"},
    {12, "XR_TYPE_FRAME_END_INFO"},
    {13, "XR_TYPE_HAPTIC_VIBRATION"},
    {16, "XR_TYPE_EVENT_DATA_BUFFER"},
    {17, "XR_TYPE_EVENT_DATA_INSTANCE_LOSS_PENDING"},
    {18, "XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED"},
    {23, "XR_TYPE_ACTION_STATE_BOOLEAN"},
    {24, "XR_TYPE_ACTION_STATE_FLOAT"},
    {25, "XR_TYPE_ACTION_STATE_VECTOR2F"},
    {27, "XR_TYPE_ACTION_STATE_POSE"},
    {28, "XR_TYPE_ACTION_SET_CREATE_INFO"},
    {29, "XR_TYPE_ACTION_CREATE_INFO"},
    {32, "XR_TYPE_INSTANCE_PROPERTIES"},
    {33, "XR_TYPE_FRAME_WAIT_INFO"},
    {35, "XR_TYPE_COMPOSITION_LAYER_PROJECTION"},
    {36, "XR_TYPE_COMPOSITION_LAYER_QUAD"},
    {37, "XR_TYPE_REFERENCE_SPACE_CREATE_INFO"},
    {38, "XR_TYPE_ACTION_SPACE_CREATE_INFO"},
    {40, "XR_TYPE_EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING"},
    {41, "XR_TYPE_VIEW_CONFIGURATION_VIEW"},
    {42, "XR_TYPE_SPACE_LOCATION"},
    {43, "XR_TYPE_SPACE_VELOCITY"},
    {44, "XR_TYPE_FRAME_STATE"},
    {45, "XR_TYPE_VIEW_CONFIGURATION_PROPERTIES"},
    {46, "XR_TYPE_FRAME_BEGIN_INFO"},
    {48, "XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW"},
    {49, "XR_TYPE_EVENT_DATA_EVENTS_LOST"},
    {51, "XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING"},
    {52, "XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED"},
    {53, "XR_TYPE_INTERACTION_PROFILE_STATE"},
    {55, "XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO"},
    {56, "XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO"},
    {57, "XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO"},
    {58, "XR_TYPE_ACTION_STATE_GET_INFO"},
    {59, "XR_TYPE_HAPTIC_ACTION_INFO"},
    {60, "XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO"},
    {61, "XR_TYPE_ACTIONS_SYNC_INFO"},
    {62, "XR_TYPE_BOUND_SOURCES_FOR_ACTION_ENUMERATE_INFO"},
    {63, "XR_TYPE_INPUT_SOURCE_LOCALIZED_NAME_GET_INFO"},
    {1000471000, "XR_TYPE_SPACES_LOCATE_INFO"},
    {1000471001, "XR_TYPE_SPACE_LOCATIONS"},
    {1000471002, "XR_TYPE_SPACE_VELOCITIES"},
};

template <std::size_t N>
const char* lookup(const EnumName (&table)[N], int32_t value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return nullptr;
}

}  // namespace

void resultName(XrResult value, char (&buffer)[XR_MAX_RESULT_STRING_SIZE]) {
  if (const char* name = lookup(kResults, static_cast<int32_t>(value)); name != nullptr) {
    std::snprintf(buffer, sizeof(buffer), "%s", name);
  } else if (value >= 0) {
    std::snprintf(buffer, sizeof(buffer), "XR_UNKNOWN_SUCCESS_%d", static_cast<int>(value));
  } else {
    std::snprintf(buffer, sizeof(buffer), "XR_UNKNOWN_FAILURE_%d", static_cast<int>(value));
  }
}

void structureTypeName(XrStructureType value, char (&buffer)[XR_MAX_STRUCTURE_NAME_SIZE]) {
  if (const char* name = lookup(kStructureTypes, static_cast<int32_t>(value)); name != nullptr) {
    std::snprintf(buffer, sizeof(buffer), "%s", name);
  } else {
    std::snprintf(buffer, sizeof(buffer), "XR_UNKNOWN_STRUCTURE_TYPE_%d", static_cast<int>(value));
  }
}

}  // namespace simxr

// Names for xrResultToString and xrStructureTypeToString.
#pragma once

#include "bundled/simxr/xr_api.h"

namespace simxr {

/** The enumerant name, or XR_UNKNOWN_SUCCESS_n / XR_UNKNOWN_FAILURE_n as the spec requires. */
void resultName(XrResult value, char (&buffer)[XR_MAX_RESULT_STRING_SIZE]);

/** The enumerant name, or XR_UNKNOWN_STRUCTURE_TYPE_n. */
void structureTypeName(XrStructureType value, char (&buffer)[XR_MAX_STRUCTURE_NAME_SIZE]);

}  // namespace simxr

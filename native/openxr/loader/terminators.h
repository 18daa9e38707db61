// The bottom of the call chain: what the layer nearest the runtime calls as "next". They find
// their LoaderInstance through XrApiLayerCreateInfo.loaderInstance (creation) or the registry
// (the runtime's handle), so several instances with different runtimes can be live at once.
#pragma once

#include "openxr/loader/xr_error.h"

namespace kl::openxr {

XRAPI_ATTR XrResult XRAPI_CALL TerminatorGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function);
XRAPI_ATTR XrResult XRAPI_CALL TerminatorCreateApiLayerInstance(const XrInstanceCreateInfo* info, const XrApiLayerCreateInfo* apiLayerInfo,
                                                                XrInstance* instance);

}  // namespace kl::openxr

// A System: what xrGetSystem found for a form factor, with its properties and view configurations.
import type { Instance } from './instance.js';
import { callNative, instanceState } from './handles.js';
import type { NativeSystemProperties, NativeViewConfigurationView } from '../native/addon.js';
import {
  ENVIRONMENT_BLEND_MODES,
  FORM_FACTORS,
  VIEW_CONFIGURATION_TYPES,
  enumName,
  enumValue,
  type EnvironmentBlendModeName,
  type FormFactorName,
  type ViewConfigurationTypeName,
} from './types.js';

export type SystemProperties = NativeSystemProperties;
export type ViewConfigurationView = NativeViewConfigurationView;

export class System {
  readonly instance: Instance;
  /** The XrSystemId. */
  readonly id: bigint;
  readonly formFactor: FormFactorName;

  /** @internal Use instance.getSystem(). */
  constructor(instance: Instance, id: bigint, formFactor: FormFactorName) {
    this.instance = instance;
    this.id = id;
    this.formFactor = formFactor;
  }

  /** xrGetSystemProperties. */
  getProperties(): SystemProperties {
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrGetSystemProperties(s.native, this.id));
  }

  /** xrEnumerateViewConfigurations (numbers for types this API has no name for). */
  viewConfigurations(): (ViewConfigurationTypeName | number)[] {
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrEnumerateViewConfigurations(s.native, this.id)).map((v) => enumName(VIEW_CONFIGURATION_TYPES, v) ?? v);
  }

  /** xrEnumerateViewConfigurationViews: one entry per view (two for primary-stereo). */
  viewConfigurationViews(type: ViewConfigurationTypeName = 'primary-stereo'): ViewConfigurationView[] {
    const value = enumValue(VIEW_CONFIGURATION_TYPES, type, 'viewConfigurationType');
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrEnumerateViewConfigurationViews(s.native, this.id, value));
  }

  /** xrEnumerateEnvironmentBlendModes. */
  environmentBlendModes(type: ViewConfigurationTypeName = 'primary-stereo'): (EnvironmentBlendModeName | number)[] {
    const value = enumValue(VIEW_CONFIGURATION_TYPES, type, 'viewConfigurationType');
    const s = instanceState(this.instance);
    return callNative(() => s.api.openxrEnumerateEnvironmentBlendModes(s.native, this.id, value)).map(
      (v) => enumName(ENVIRONMENT_BLEND_MODES, v) ?? v,
    );
  }
}

export function getSystem(instance: Instance, formFactor: FormFactorName = 'head-mounted-display'): System {
  const value = enumValue(FORM_FACTORS, formFactor, 'formFactor');
  const s = instanceState(instance);
  return new System(instance, callNative(() => s.api.openxrGetSystem(s.native, value)), formFactor);
}

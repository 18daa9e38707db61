// The Platform's RegistryView over a function that reads one key of the real registry (the
// addon's windowsRegistryReadKey on Windows; a test passes its own). Discovery stays pure: it
// only ever sees the view.
import type { RegistryHive, RegistryValue, RegistryView } from './platform.js';

/** One key as the reader answers it: its values in registry order and its subkey names. */
export interface RegistryKeyContents {
  readonly values: readonly RegistryValue[];
  readonly subkeys: readonly string[];
}

/**
 * Reads HKLM or HKCU `key` (64-bit view; a path through WOW6432Node reads the 32-bit one): null
 * when the key does not exist; throws for a key that exists but cannot be read.
 */
export type RegistryKeyReader = (hive: RegistryHive, key: string) => RegistryKeyContents | null;

/**
 * A RegistryView reading through `read`. A key that cannot be read (access denied) answers
 * undefined, as a missing key does, after `onError` is told why (discovery then logs that the
 * key could not be opened, as the Khronos loaders do).
 */
export function registryViewFromReader(read: RegistryKeyReader, os64Bit: boolean, onError?: (message: string) => void): RegistryView {
  const readKey = (hive: RegistryHive, key: string): RegistryKeyContents | undefined => {
    try {
      return read(hive, key) ?? undefined;
    } catch (error) {
      onError?.(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  return {
    os64Bit,
    values: (hive, key) => readKey(hive, key)?.values,
    subkeys: (hive, key) => readKey(hive, key)?.subkeys,
  };
}

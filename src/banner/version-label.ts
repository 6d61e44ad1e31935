// A version as the templates that draw a release write it.

import { stripFormatting } from "../minecraft/format.ts";

/** "0.2.1" -> "v0.2.1"; other version names as they are; "" for none. */
export function versionLabel(version: string | null): string {
  if (!version) return "";
  const text = stripFormatting(version).trim();
  return /^\d/.test(text) ? `v${text}` : text;
}

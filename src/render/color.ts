// Colours as callers write them: straight (not premultiplied) 8-bit RGBA.
// Premultiplication happens once, where a colour meets the pixmap.

/** A straight-alpha colour; every channel is an integer 0..255. */
export interface Color {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

const clampByte = (value: number): number => (value <= 0 ? 0 : value >= 255 ? 255 : Math.round(value));

export function rgba(r: number, g: number, b: number, a = 255): Color {
  return { r: clampByte(r), g: clampByte(g), b: clampByte(b), a: clampByte(a) };
}

/** "#rgb", "#rrggbb" or "#rrggbbaa" (case-insensitive); null for anything else. */
export function parseHexColor(text: string): Color | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text);
  if (!match) return null;
  let hex = match[1]!;
  if (hex.length === 3) hex = hex.replace(/./g, (digit) => digit + digit);
  const value = (offset: number): number => Number.parseInt(hex.slice(offset, offset + 2), 16);
  return { r: value(0), g: value(2), b: value(4), a: hex.length === 8 ? value(6) : 255 };
}

/** Rounded x/255 for integers 0..65535 without a division (exact in that range). */
export function div255(x: number): number {
  return (x + 128 + ((x + 128) >> 8)) >> 8;
}

/** An opacity 0..1 (clamped; NaN counts as 0) as an alpha 0..255. */
export function opacityToAlpha(opacity: number): number {
  return Math.round(255 * (opacity >= 1 ? 1 : opacity > 0 ? opacity : 0));
}

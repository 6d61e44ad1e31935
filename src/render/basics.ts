// The part of the engine's surface that draws nothing and loads neither fonts
// nor encoders: colours, size limits, cutting text by a caller's measure,
// counting the characters the faces' tables do not shape, and reading PNGs.
// The thread that answers requests imports only this to plan images (with
// render threads it draws only the smallest stills of the tables' text, so it
// never carries fontkit, tens of MiB a thread: docs/performance-notes.md, "The
// answering thread"); index.ts offers it too, beside everything that draws.

export { type Color, rgba, parseHexColor } from "./color.ts";
export type { GradientStop } from "./paint/paint.ts";
export type { Pixmap } from "./pixmap.ts";
export { ellipsizedPrefix } from "./text/ellipsis.ts";
export { charactersBeyondTables } from "./text/table-alphabet.ts";
export { decodePng, DEFAULT_DECODE_LIMITS, type DecodeLimits, type DecodeResult } from "./image/decode-png.ts";
export { readImageHeader, type ImageHeader, type RasterFormat } from "./image/image-header.ts";
export { LARGE_WEBP_PIXELS } from "./encode/webp-limits.ts";

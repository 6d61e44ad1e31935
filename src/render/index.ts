// The public surface of the rendering engine. Everything outside src/render
// imports from here; module paths behind it may move.

export { type Color, rgba, parseHexColor } from "./color.ts";
export { type Transform, IDENTITY, translate, scale, rotate, then, invert } from "./transform.ts";
export { Path, type CornerRadii } from "./path.ts";
export { Pixmap, MAX_PIXMAP_SIDE } from "./pixmap.ts";
export type { FillRule } from "./raster/accumulate.ts";
export { type Mask, type Rect, rasterizeToMask, emptyMask, MASK_LIMIT } from "./raster/mask.ts";
export { drawMask } from "./paint/draw-mask.ts";
export { type Paint, type GradientStop, type SolidPaint, type LinearGradient, type RadialGradient, solid, linearGradient, radialGradient } from "./paint/paint.ts";
export type { StrokeStyle, LineCap, LineJoin } from "./raster/stroke.ts";
export { fillPath, strokePath, type DrawOptions, type FillOptions } from "./draw.ts";
export { drawImage, halve, type ImageFilter, type ImageOptions, type DestinationRect } from "./image/draw-image.ts";
export { blurMask, blurPixmap } from "./image/blur.ts";
export { decodePng, DEFAULT_DECODE_LIMITS, type DecodeLimits, type DecodeResult } from "./image/decode-png.ts";
export { encodePng, type PngOptions } from "./encode/png.ts";
export { encodeWebp, initWebp, type WebpOptions } from "./encode/webp.ts";

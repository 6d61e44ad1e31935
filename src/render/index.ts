// The public surface of the rendering engine. Everything outside src/render
// imports from here, or from basics.ts where it draws nothing (the thread that
// answers requests); module paths behind them may move.

export * from "./basics.ts";
export { type Transform, IDENTITY, translate, scale, rotate, compose, invert } from "./transform.ts";
export { Path, type CornerRadii } from "./path.ts";
export { Pixmap } from "./pixmap.ts";
export { PixmapPool, type PoolUsage } from "./pixmap-pool.ts";
export { trimWorkingBuffers } from "./working-buffer.ts";
export {
  RenderContext, NO_CACHES, KEEP_NOTHING, maskBytes, type RenderMemory, type RenderCacheName,
} from "./context.ts";
export type { EngineCache } from "./engine-cache.ts";
export type { FillRule } from "./raster/accumulate.ts";
export { type Mask, type Rect, rasterizeToMask, emptyMask, MASK_LIMIT } from "./raster/mask.ts";
export { drawMask } from "./paint/draw-mask.ts";
export { type Paint, type SolidPaint, type LinearGradient, type RadialGradient, solid, linearGradient, radialGradient } from "./paint/paint.ts";
export type { StrokeStyle, LineCap, LineJoin } from "./raster/stroke.ts";
export { fillPath, strokePath, type DrawOptions, type FillOptions } from "./draw.ts";
export { drawImage, halve, type ImageFilter, type ImageOptions, type DestinationRect } from "./image/draw-image.ts";
export { blurMask, blurPixmap } from "./image/blur.ts";
export { decodeImage } from "./image/decode-image.ts";
export { hashNoise, cellNoise, pixelTile, repeatTile } from "./texture.ts";
export { encodePng, type PngOptions } from "./encode/png.ts";
export { encodeWebp, initWebp, onEncoderDropped, type WebpOptions } from "./encode/webp.ts";
export { wholeFrames, type Animation, type AnimationFrame, type LaterFrames } from "./encode/animation-frame.ts";
export { StateRegions } from "./encode/state-regions.ts";
export { encodeGif } from "./encode/gif.ts";
export { encodeAnimatedWebp, readWebpChunks, webpFile, type RiffChunk } from "./encode/animated-webp.ts";
export { crossFade } from "./image/cross-fade.ts";
export type { Face, FaceMetrics } from "./text/face.ts";
export { openOutlineFace } from "./text/outline-face.ts";
export { PixelFace } from "./text/pixel-face.ts";
export { sansFamily, pixelFamily } from "./text/fonts.ts";
export {
  type FontFamily, type FontStyle, type PlacedGlyph, type TextLine, layoutText, measureText, ellipsize, stretchToWidth,
} from "./text/layout.ts";
export { drawTextLine, type TextDrawOptions } from "./text/draw-text.ts";
export { GlyphCache, GLYPH_VARIANTS, type GlyphShadow } from "./text/glyph-cache.ts";
export {
  layoutFormatted, drawFormattedLine, shadowColor, type TextRun, type FormattedLine, type FormattedDrawOptions,
} from "./text/minecraft-text.ts";

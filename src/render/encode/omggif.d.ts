// The part of omggif (no typings of its own) that gif.ts writes with and tests read with.
declare module "omggif" {
  export interface GifFrameInfo {
    x: number;
    y: number;
    width: number;
    height: number;
    /** Hundredths of a second. */
    delay: number;
    disposal: number;
    transparent_index: number | null;
    palette_offset: number | null;
    palette_size: number | null;
  }
  export class GifReader {
    constructor(bytes: Uint8Array);
    readonly width: number;
    readonly height: number;
    numFrames(): number;
    loopCount(): number | null;
    frameInfo(frame: number): GifFrameInfo;
    decodeAndBlitFrameRGBA(frame: number, pixels: Uint8Array): void;
  }
  export class GifWriter {
    constructor(buffer: Uint8Array, width: number, height: number, options?: { loop?: number; palette?: number[] });
    addFrame(x: number, y: number, width: number, height: number, indexed: Uint8Array, options?: { palette?: number[]; delay?: number; transparent?: number; disposal?: number }): number;
    end(): number;
  }
}

// The part of gifenc (no typings of its own) that gif.ts and the bench use.
declare module "gifenc" {
  export interface FrameOptions {
    palette?: ArrayLike<ArrayLike<number>>;
    delay?: number;
    repeat?: number;
    transparent?: boolean;
    transparentIndex?: number;
    dispose?: number;
  }
  export interface GifStream {
    writeFrame(index: Uint8Array, width: number, height: number, options?: FrameOptions): void;
    finish(): void;
    bytes(): Uint8Array;
  }
  export function GIFEncoder(options?: { initialCapacity?: number }): GifStream;
}

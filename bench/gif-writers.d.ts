// The parts of the GIF writers bench/animated.ts compares that it uses (neither ships typings).
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
declare module "gif-encoder-2" {
  export default class GIFEncoder2 {
    constructor(width: number, height: number, algorithm?: "neuquant" | "octree", useOptimizer?: boolean);
    setRepeat(count: number): void;
    setDelay(ms: number): void;
    start(): void;
    addFrame(pixels: Uint8Array): void;
    finish(): void;
    out: { getData(): Uint8Array };
  }
}

// WebP through @jsquash/webp (libwebp in wasm). The wasm is imported as a
// file so that `bun build --compile` embeds it (the package's own loader
// looks for it on disk and fails inside the binary), compiled once, and
// handed to the encoder's init. The package picks its SIMD or plain glue by
// feature test; we pick the matching wasm by the same kind of test.

import { init } from "@jsquash/webp/encode.js";
import { defaultOptions } from "@jsquash/webp/meta.js";
import simdWasmPath from "@jsquash/webp/codec/enc/webp_enc_simd.wasm" with { type: "file" };
import plainWasmPath from "@jsquash/webp/codec/enc/webp_enc.wasm" with { type: "file" };
import type { Pixmap } from "../pixmap.ts";
import { straightRgba } from "./straight-scratch.ts";
import { LARGE_WEBP_PIXELS } from "./webp-limits.ts";

export interface WebpOptions {
  /** Lossless (default) suits flat art; lossy is smaller for photos and busy gradients. */
  lossless?: boolean;
  /** Lossy quality 0..100 (default 80). */
  quality?: number;
}

/** A module whose only function uses a SIMD instruction (i8x16.splat): valid exactly where wasm SIMD is supported. */
const SIMD_PROBE = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // types: () -> v128
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // body: i32.const 0; i8x16.splat; end
);

export function supportsWasmSimd(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}

/**
 * The instantiated encoder as its emscripten glue exposes it: called
 * directly, not through the package's encode(), which awaits before it reads
 * the pixels, so that the straight copy is read from the shared scratch
 * (straight-scratch.ts) before any other encode can run.
 */
interface WebpEncoder {
  encode(rgba: Uint8Array, width: number, height: number, options: typeof defaultOptions): Uint8Array | null;
}

/**
 * Lossless at the least effort that keeps the bytes (measured on the 1200x300
 * bench banner and every template at 468x60 and 1200x300, scale 1 and 2;
 * docs/performance-notes.md, "Lossless WebP"): method 0 (the default, 4,
 * takes ~20x the time for 2% fewer bytes); quality 50, which for lossless is
 * the effort of the backward-reference search (75 before: 8-11% more time
 * for 2-4% fewer bytes); exact, as the straight copy already has nothing
 * under transparent pixels (the encoder's clean-up pass found nothing to
 * change: the same bytes, 1-5% less time). Near-lossless stays off (100).
 */
const LOSSLESS = { lossless: 1, exact: 1, quality: 50, method: 0, near_lossless: 100 };

let compiled: Promise<WebAssembly.Module> | null = null;
let ready: Promise<WebpEncoder> | null = null;

/** Compiles the encoder once and instantiates it when none is; later calls share the same promise. */
export function initWebp(): Promise<WebpEncoder> {
  ready ??= (async () => {
    compiled ??= (async () => {
      const path = supportsWasmSimd() ? simdWasmPath : plainWasmPath;
      return WebAssembly.compile(await Bun.file(path).arrayBuffer());
    })();
    // The published typings omit the (module, options) form that encode.js accepts.
    return (init as unknown as (module: WebAssembly.Module) => Promise<WebpEncoder>)(await compiled);
  })();
  return ready;
}

/** A still WebP of `pixmap`; the encoder is renewed after it when the image grew its memory (webp-limits.ts). */
export async function encodeWebp(pixmap: Pixmap, options: WebpOptions = {}): Promise<Uint8Array> {
  const encoded = await encodeWebpFrame(pixmap, options);
  renewAfter(pixmap.width * pixmap.height);
  return encoded;
}

/**
 * A WebP of `pixmap`, the encoder kept however it grew: an animation's frames
 * (animated-webp.ts), which renew it after the whole first frame
 * (dropIfGrown) and after the last (renewAfter).
 */
export async function encodeWebpFrame(pixmap: Pixmap, options: WebpOptions = {}): Promise<Uint8Array> {
  const encoder = await initWebp();
  const lossless = options.lossless ?? true;
  const settings = lossless
    ? LOSSLESS
    : { lossless: 0, quality: Math.min(100, Math.max(0, options.quality ?? 80)), method: 2 };
  const encoded = encoder.encode(straightRgba(pixmap).rgba, pixmap.width, pixmap.height, { ...defaultOptions, ...settings });
  if (!encoded) throw new Error("the WebP encoder failed");
  return encoded;
}

/**
 * After an image of `pixels` (an animation's largest frame), a new instance
 * when it grew the encoder's memory, so the grown one is garbage at once (not
 * at the next WebP); a failure leaves the next encode to try. True when it
 * was renewed.
 */
export function renewAfter(pixels: number): boolean {
  if (pixels <= LARGE_WEBP_PIXELS) return false;
  ready = null;
  initWebp().catch(() => {
    ready = null;
  });
  return true;
}

/** What this thread does with a grown instance dropped in the middle of a drawing; nothing unless told (onEncoderDropped). */
let collectDropped: () => Promise<void> = () => Promise.resolve();

/**
 * `collect` frees what an instance dropped in the middle of a drawing held:
 * the render threads collect their garbage in full there (draw-memory.ts),
 * so that an animation's later frames and states are drawn beside 16 MiB of
 * encoder, not 40.
 */
export function onEncoderDropped(collect: () => Promise<void>): void {
  collectDropped = collect;
}

/** After an animation's whole first frame of `pixels`: when it grew the encoder, a new instance, and the grown one collected (onEncoderDropped). */
export async function dropIfGrown(pixels: number): Promise<void> {
  if (renewAfter(pixels)) await collectDropped();
}

// WebP decoding through @jsquash/webp's libwebp decoder (wasm). As the
// encoder (encode/webp.ts), the wasm is imported as a file so that
// `bun build --compile` embeds it, compiled once on first use and handed to
// the package's init; animated WebP is refused by the decoder (it throws).

import { init } from "@jsquash/webp/decode.js";
import decode from "@jsquash/webp/decode.js";
import wasmPath from "@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };

let ready: Promise<void> | null = null;

function initDecoder(): Promise<void> {
  ready ??= (async () => {
    const module = await WebAssembly.compile(await Bun.file(wasmPath).arrayBuffer());
    // The published typings omit the (module) form that decode.js accepts.
    await (init as unknown as (module: WebAssembly.Module) => Promise<void>)(module);
  })();
  return ready;
}

/** Straight RGBA of a still WebP; throws when libwebp cannot decode it. */
export async function decodeWebpRgba(bytes: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  await initDecoder();
  const copy = bytes.slice();
  const image = await decode(copy.buffer);
  return { width: image.width, height: image.height, data: image.data };
}

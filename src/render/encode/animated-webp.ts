// Animated WebP: each frame encoded as a still by the WebP encoder
// (webp.ts, lossless), its image chunk taken out of the still's RIFF file and
// put in an ANMF chunk of one animated file: RIFF, VP8X (canvas size, flags
// animation and alpha), ANIM (loop forever), then one ANMF per frame, as the
// WebP container specification lays it out. The first frame covers the
// canvas; each later one only the rectangle that changed (at even offsets, as
// ANMF places them; animation-frame.ts), replacing it (no blending): the
// canvas after a frame is the frame's drawing.

import { freeNow } from "../free-now.ts";
import type { Pixmap } from "../pixmap.ts";
import { cropPixmap, FrameChanges, onCanvas, type Animation, type FrameBox } from "./animation-frame.ts";
import { dropIfGrown, encodeWebpFrame, renewAfter } from "./webp.ts";

const VP8X_ANIMATION = 0x02;
const VP8X_ALPHA = 0x10;
/** ANMF flags: bit 1 set, do not blend with the canvas; bit 0 clear, do not dispose. */
const ANMF_NO_BLEND = 0x02;
/** The most a 24-bit field holds: frame durations in milliseconds, sides less one. */
const MAX_24 = 0xff_ffff;

export interface RiffChunk {
  fourcc: string;
  /** The chunk's payload, without its header or padding. */
  data: Uint8Array;
}

/** The chunks of a RIFF WEBP file, in order; throws on a file that is not one. */
export function readWebpChunks(file: Uint8Array): RiffChunk[] {
  const text = (at: number) => String.fromCharCode(...file.subarray(at, at + 4));
  if (file.length < 12 || text(0) !== "RIFF" || text(8) !== "WEBP") throw new RangeError("not a RIFF WEBP file");
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const end = Math.min(file.length, 8 + view.getUint32(4, true));
  const chunks: RiffChunk[] = [];
  for (let at = 12; at + 8 <= end;) {
    const size = view.getUint32(at + 4, true);
    if (at + 8 + size > end) throw new RangeError("a WebP chunk runs past the file's end");
    chunks.push({ fourcc: text(at), data: file.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size & 1);
  }
  return chunks;
}

/** Chunks as bytes: each header, payload and its padding to an even length. */
function writeChunks(chunks: readonly RiffChunk[]): Uint8Array {
  const length = chunks.reduce((sum, { data }) => sum + 8 + data.length + (data.length & 1), 0);
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const { fourcc, data } of chunks) {
    for (let i = 0; i < 4; i++) out[at + i] = fourcc.charCodeAt(i);
    view.setUint32(at + 4, data.length, true);
    out.set(data, at + 8);
    at += 8 + data.length + (data.length & 1);
  }
  return out;
}

function uint24(out: Uint8Array, at: number, value: number): void {
  out[at] = value & 255;
  out[at + 1] = (value >> 8) & 255;
  out[at + 2] = (value >> 16) & 255;
}

/** A RIFF WEBP file of `chunks`. */
export function webpFile(chunks: readonly RiffChunk[]): Uint8Array {
  const body = writeChunks(chunks);
  const out = new Uint8Array(12 + body.length);
  out.set([0x52, 0x49, 0x46, 0x46]); // RIFF
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set([0x57, 0x45, 0x42, 0x50], 8); // WEBP
  out.set(body, 12);
  return out;
}

/** An ANMF chunk: a frame at `box` (x and y even), shown `durationMs`, made of a still's image chunks. */
function frameChunk(box: FrameBox, durationMs: number, image: readonly RiffChunk[]): RiffChunk {
  const chunks = writeChunks(image);
  const data = new Uint8Array(16 + chunks.length);
  uint24(data, 0, box.x / 2);
  uint24(data, 3, box.y / 2);
  uint24(data, 6, box.width - 1);
  uint24(data, 9, box.height - 1);
  uint24(data, 12, Math.min(MAX_24, Math.max(0, Math.round(durationMs))));
  data[15] = ANMF_NO_BLEND;
  data.set(chunks, 16);
  return { fourcc: "ANMF", data };
}

/**
 * The animated WebP of `animation`, lossless, looping forever. Beside the
 * encoder, it holds FrameChanges' copy of the region, one frame's crop and
 * encoded still at a time, and every frame's chunk; each crop, still and
 * chunk is freed at once when copied on (free-now.ts), not left for the
 * collector. The later frames are asked for once the encoder has given back
 * what the whole first frame grew (dropIfGrown).
 */
export async function encodeAnimatedWebp({ first, later }: Animation): Promise<Uint8Array> {
  const { width, height } = first.pixmap;
  const chunks: RiffChunk[] = [];
  let changes: FrameChanges | null = null;
  /** A frame's chunk: `box` of the canvas, drawn by `drawn` (its size). */
  const add = async (drawn: Pixmap, box: FrameBox, durationMs: number) => {
    const file = await encodeWebpFrame(drawn);
    // A still is VP8L alone, or VP8X then ALPH and VP8: its image is everything but the header chunk.
    const image = readWebpChunks(file).filter((chunk) => chunk.fourcc === "VP8L" || chunk.fourcc === "VP8 " || chunk.fourcc === "ALPH");
    chunks.push(frameChunk(box, durationMs, image));
    freeNow(file);
  };
  let largest = 0;
  try {
    await add(first.pixmap, { x: 0, y: 0, width, height }, first.durationMs);
    // The whole first frame may have grown the encoder: given back before the later frames are drawn.
    await dropIfGrown(width * height);
    const { region, frames } = later();
    for (const { pixmap, durationMs } of frames) {
      changes ??= new FrameChanges(2, first.pixmap, region);
      const box = changes.next(pixmap);
      const whole = box.width === pixmap.width && box.height === pixmap.height;
      const drawn = whole ? pixmap : cropPixmap(pixmap, box);
      await add(drawn, onCanvas(box, region), durationMs);
      largest = Math.max(largest, box.width * box.height);
      if (!whole) freeNow(drawn.data);
    }
  } finally {
    changes?.end();
    renewAfter(largest);
  }
  const header = new Uint8Array(10);
  header[0] = VP8X_ANIMATION | VP8X_ALPHA;
  uint24(header, 4, width - 1);
  uint24(header, 7, height - 1);
  // Background: transparent (BGRA 0); loop count 0: forever.
  const anim = new Uint8Array(6);
  const file = webpFile([{ fourcc: "VP8X", data: header }, { fourcc: "ANIM", data: anim }, ...chunks]);
  for (const { data } of chunks) freeNow(data);
  return file;
}

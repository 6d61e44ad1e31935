// A buffer reused by every call of one drawing step on this thread (the
// straight copy the encoders read, the PNG's filtered rows): it grows to the
// largest image asked for, so a storm of drawings allocates nothing, and is
// trimmed back to the largest asked for since the last trim, so a thread that
// drew one 1200x300 banner at scale 2 does not keep its 5.8 MB through hours
// of badges. Trimming frees the old buffer at once (its memory detached), not
// at the collector's leisure.

import { freeNow } from "./free-now.ts";

/** The drawing steps' buffers of this thread (made once, at module level), for trimWorkingBuffers(). */
const steps: WorkingBuffer[] = [];

export class WorkingBuffer {
  private buffer = new Uint8Array(0);
  /** The most bytes asked for since the last trim. */
  private asked = 0;

  /** A buffer of a drawing step, trimmed with the others by trimWorkingBuffers(). */
  static forStep(): WorkingBuffer {
    const buffer = new WorkingBuffer();
    steps.push(buffer);
    return buffer;
  }

  /** `bytes` bytes of the buffer (valid until the next call on this thread); what they held before is left as it was. */
  take(bytes: number): Uint8Array<ArrayBuffer> {
    if (this.buffer.length < bytes) this.buffer = new Uint8Array(bytes);
    this.asked = Math.max(this.asked, bytes);
    return this.buffer.subarray(0, bytes);
  }

  get heldBytes(): number {
    return this.buffer.length;
  }

  /** Shrinks to what was asked for since the last trim, when that is less than held. */
  trim(): void {
    if (this.asked < this.buffer.length) {
      freeNow(this.buffer);
      this.buffer = new Uint8Array(this.asked);
    }
    this.asked = 0;
  }
}

/**
 * Trims every working buffer of this thread: called between drawings, when
 * the thread collects its garbage (src/serve/drawing), whose period, tens of
 * drawings, is long enough that a mix of sizes keeps its largest buffer.
 */
export function trimWorkingBuffers(): void {
  for (const buffer of steps) buffer.trim();
}

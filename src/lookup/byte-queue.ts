// Bytes received so far, in one buffer that grows by doubling, so that a reply
// sent one byte at a time costs linear, not quadratic, copying.

export class ByteQueue {
  private storage = new Uint8Array(256);
  private start = 0;
  private end = 0;

  push(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.storage.length) {
      const needed = this.end - this.start + chunk.length;
      let capacity = this.storage.length;
      while (capacity < needed * 2) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.storage.subarray(this.start, this.end));
      this.storage = grown;
      this.end -= this.start;
      this.start = 0;
    }
    this.storage.set(chunk, this.end);
    this.end += chunk.length;
  }

  get length(): number {
    return this.end - this.start;
  }

  /** A view of the unread bytes (valid until the next push). */
  view(): Uint8Array {
    return this.storage.subarray(this.start, this.end);
  }

  /** Drops `count` bytes from the front. */
  consume(count: number): void {
    this.start = Math.min(this.end, this.start + count);
  }
}

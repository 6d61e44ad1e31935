// Reading an answer's body from a peer Pennant does not control (a Nitrado
// Query, Discord's API, a marketplace's icon) without holding whatever it
// sends: the reading stops as soon as the body passes its bound.

/** The response's body, or null when it is longer than `maxBytes` (the rest is not read). */
export async function boundedBytes(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    if (bytes > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The response's body as UTF-8 text, or null when it is longer than `maxBytes` (the rest is not read). */
export async function boundedText(response: Response, maxBytes: number): Promise<string | null> {
  const bytes = await boundedBytes(response, maxBytes);
  return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8");
}

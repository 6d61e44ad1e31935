// Reading an answer's body from a peer Pennant does not control (a Nitrado
// Query, Discord's API) without holding whatever it sends: the reading stops
// as soon as the body passes its bound.

/** The response's body as UTF-8 text, or null when it is longer than `maxBytes` (the rest is not read). */
export async function boundedText(response: Response, maxBytes: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
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
  return Buffer.concat(chunks).toString("utf8");
}

// Text a cached result keeps: at most `chars` characters, in a string of its
// own. A plain slice would not do: JavaScriptCore's substrings point into the
// string they were cut from and keep all of it alive (measured: a 100-character
// slice of a 52,000-character reply held 105 KB), and the replies these come
// from are tens of kilobytes.

export function keptText(text: string, chars: number): string {
  return Buffer.from(text.slice(0, chars), "utf16le").toString("utf16le");
}

// Compiled into a binary of its own by binary.test.ts: it proves that the
// fonts and the WebP wasm travel inside a `bun build --compile` executable.
// Prints JSON: the faces each sample used, and the images as base64.

import { Pixmap, drawTextLine, encodePng, encodeWebp, layoutText, pixelFamily, rgba, sansFamily } from "../../../src/render/index.ts";

const samples = [
  { text: "Pennant 中文 한국 ★ 🎮", family: sansFamily(), bold: false },
  { text: "Pennant bold", family: sansFamily(), bold: true },
  { text: "Pixel 日本", family: pixelFamily(), bold: false },
];
const pixmap = new Pixmap(260, 80);
const faces = samples.map(({ text, family, bold }, i) => {
  const line = layoutText(text, { family, size: 16, bold });
  drawTextLine(pixmap, line, 4, 20 + i * 24, rgba(255, 255, 255));
  return [...new Set(line.glyphs.map((glyph) => glyph.face.name))];
});
const png = Buffer.from(encodePng(pixmap)).toString("base64");
const webp = Buffer.from(await encodeWebp(pixmap)).toString("base64");
console.log(JSON.stringify({ faces, png, webp }));

// Files embedded into the compiled binary by import. With `with { type: "file" }`
// the default export is a path that Bun.file() can read (inside the binary it
// points into the embedded file system); with `with { type: "text" }` it is the
// file's contents.

declare module "*.sql" {
  const content: string;
  export default content;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.ttf" {
  const path: string;
  export default path;
}
declare module "*.otf" {
  const path: string;
  export default path;
}
declare module "*.woff" {
  const path: string;
  export default path;
}
declare module "*.woff2" {
  const path: string;
  export default path;
}
declare module "*.txt" {
  const content: string;
  export default content;
}
declare module "*.css" {
  const content: string;
  export default content;
}
// The designer page, imported as text (bun-types reads other .html imports as
// Bun.serve's HTML bundles); its script is served as it is, not a module of ours.
declare module "*/designer/index.html" {
  const content: string;
  export default content;
}
declare module "*/designer/designer.js" {
  const content: string;
  export default content;
}
// The public pages' script (src/http/page-assets), served as it is.
declare module "*/page-assets/page.js" {
  const content: string;
  export default content;
}
// The owner's console's script (src/http/console-assets), served as it is.
declare module "*/console-assets/console.js" {
  const content: string;
  export default content;
}

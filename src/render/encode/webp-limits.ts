// The WebP encoder's size limit apart from the encoder, so that who weighs a
// drawing's memory before it starts (src/serve/drawing) reads it without
// loading the encoder's code.

/**
 * The encoder's wasm memory starts at 16 MiB, which holds images up to about
 * half a million pixels; a larger one grows it (to 40 MiB for a 1200x300
 * banner at scale 2, read from the instance's heap after encoding three
 * templates) and wasm memory is never given back. So the instance is
 * dropped after such an image, and the next encode makes a new one from the
 * compiled module (~5 ms, beside 40-100 ms for the large image): each thread
 * that draws keeps 16 MiB, not its largest image's worth.
 */
export const LARGE_WEBP_PIXELS = 512 * 1024;

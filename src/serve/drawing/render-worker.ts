// A render thread (render-pool.ts starts it): draws the jobs it is sent, one
// at a time, with drawing caches of its own (a thread cannot read another's
// memory), and sends each image back with the buffer transferred, not copied.
// Fonts, glyph caches and tables are loaded once per thread, on first use.

import { edenGC } from "bun:jsc";
import { CacheBudget } from "../../cache/budget.ts";
import { onEncoderDropped, trimWorkingBuffers } from "../../render/index.ts";
import { drawJob, DrawingKit } from "./draw-job.ts";
import type { FromRenderThread, GarbageCollection, ToRenderThread } from "./render-messages.ts";

declare const self: Worker;

/** The encoders' working buffers back to what the drawings since the last collection needed, then the collection. */
const collectGarbage = (kind: GarbageCollection) => {
  trimWorkingBuffers();
  if (kind === "young") edenGC();
  else Bun.gc(true);
};

/** A collection from the event loop (setImmediate), on a stack of its own: handle() says why. */
const collectSoon = (kind: GarbageCollection) => new Promise<void>((collected) => setImmediate(() => (collectGarbage(kind), collected())));

// An animation's whole first frame grew the WebP encoder, which is dropped
// before the animation draws its other states: collected in full then, from
// the event loop as after an answer (below), so that they are drawn beside
// 16 MiB of encoder, not 40 (docs/performance-notes.md).
onEncoderDropped(() => collectSoon("full"));

let drawing: { budget: CacheBudget; kit: DrawingKit } | undefined;

/** Bytes that own their whole buffer, so it can be transferred without taking anything else with it. */
function alone(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
}

/** The jobs in the order they came, one at a time: one is handed ahead while the one before draws, and a drawing awaits (the WebP encoder's start). */
let turn = Promise.resolve();

self.onmessage = (event: MessageEvent<ToRenderThread>) => {
  // A failure outside a drawing is thrown again from a timer, an uncaught error: the pool hears of it and replaces the thread.
  turn = turn.then(() => handle(event.data)).catch((error: unknown) => {
    setTimeout(() => {
      throw error;
    });
  });
};

async function handle(message: ToRenderThread): Promise<void> {
  if (message.type === "start") {
    const budget = new CacheBudget(message.cacheBytes);
    drawing = { budget, kit: new DrawingKit(budget) };
    return;
  }
  if (message.type === "collect") return collectSoon("full");
  const { budget, kit } = drawing!;
  let answer: FromRenderThread;
  try {
    const bytes = alone(await drawJob(message.job, kit));
    answer = { id: message.id, bytes, usage: [...budget.usage()] };
    self.postMessage(answer, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    answer = { id: message.id, error: error instanceof Error ? error.message : String(error), usage: [...budget.usage()] };
    self.postMessage(answer);
  }
  // After the answer, before this thread's next job (one may already be
  // waiting: handed ahead); from the event loop (setImmediate), on a stack of
  // its own. The collector scans the stack conservatively: collecting here,
  // where the drawing just ran, left what it had dropped alive (a large
  // WebP's grown encoder survived collection after collection). Here it is
  // freed, and the banner storm of bench/threads.ts peaks lower
  // (docs/performance-notes.md, "Render threads and their collections").
  if (message.collect) await collectSoon(message.collect);
}

// The pool of render threads (PENNANT_RENDER_THREADS): the image pipeline's
// draw step hands it a job (plain data) and gets the encoded bytes back, so
// the thread that answers requests only parses, reads caches and writes,
// whatever is being drawn (but the smallest stills, which it draws itself:
// small-draws-here.ts). Threads start on the first draws that find none
// free (or all at once with warm(), as `serve` does), each draws one job at a
// time and is handed the next one ahead (AHEAD), and a thread that dies is
// replaced: the job it was on fails, the one handed ahead waits for another
// thread, the others go on.
// How many jobs may wait, and in what order, is the draw queue's business in
// front of the pool; the pool keeps what reaches it in arrival order, and
// starts the next only while the drawings in flight stay within their memory
// allowance (draw-memory.ts): the largest WebP is drawn alone.

import type { CacheStats } from "../../cache/bounded-cache.ts";
import { DRAWING_CACHES, drawingCacheBytes, type CacheBytes, type CacheName } from "../../config.ts";
import {
  ANSWERING_THREAD_COLLECT_AFTER_BYTES, answeredMemory, CollectionSchedule, drawingMemory, DRAWING_MEMORY_BYTES, GarbageTally, runsAlone,
} from "./draw-memory.ts";
import type { Drawer, Drawing } from "../../http/drawing/drawer.ts";
import type { FromRenderThread, ToRenderThread } from "./render-messages.ts";

// The worker is a module of its own, found beside this one, except in the
// release binary: `bun build --compile` embeds it as a second entry point
// (.ci/build.ts) under a virtual root, the entries' common folder (src/),
// where `new Worker` finds it by its path from that root. (A URL made from
// import.meta.url names the bundle there, not this module.)
const IN_BINARY = /^(\/\$bunfs\/|[A-Z]:[\\/]~BUN[\\/])/.test(import.meta.path);
/** Where a render thread's module is, here and in the binary (a test starts one by itself from it). */
export const WORKER_URL = IN_BINARY ? "./serve/drawing/render-worker.ts" : new URL("./render-worker.ts", import.meta.url).href;

interface Task {
  drawing: Drawing;
  /** Its transient memory (draw-memory.ts), held from its start to its end. */
  memory: number;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface RenderThread {
  worker: Worker;
  /** The job it draws now, then the one handed to it ahead (its first is drawn first); empty: free. */
  tasks: Task[];
  /** Ends the thread if its drawing runs past the deadline. */
  deadline: ReturnType<typeof setTimeout> | undefined;
  /** Its drawing caches as its last answer reported them. */
  usage: Array<[CacheName, CacheStats]>;
  /** When it collects its garbage. */
  collections: CollectionSchedule;
}

/**
 * The longest a drawing may run: the largest takes ~100 ms, so one still
 * running after this is stuck (a fault), and its thread is replaced rather
 * than left to hold a place in the queue for good.
 */
const DRAW_DEADLINE_MS = 10_000;

/**
 * Jobs handed to a busy thread beside the one it draws: it starts the next
 * as soon as it answers, without waiting for the answering thread (on a busy
 * machine, for a core) to hear the answer and send the next. 5-10% more new
 * banners a second with one render thread and with two (bench/threads.ts's
 * mix, alternating rounds on one machine). A job handed ahead counts in the
 * memory in flight from then on, so it never makes room for more drawings.
 */
const AHEAD = 1;

export interface RenderPoolSettings {
  threads: number;
  /** DRAW_DEADLINE_MS unless given (tests). */
  drawDeadlineMs?: number;
  /** The whole cache budget's bytes; each thread keeps its part of the drawing shares. */
  cacheBytes: CacheBytes;
  /** The threads the drawing shares are split between: these threads unless given (the answering thread draws too: small-draws-here.ts). */
  drawers?: number;
}

export class RenderPool implements Drawer {
  /** Draws it takes at once: each thread's drawing and the one handed ahead. */
  readonly slots: number;
  private readonly threads: RenderThread[] = [];
  private readonly waiting: Task[] = [];
  private readonly perThread: CacheBytes;
  private nextId = 0;
  /** The transient memory of the drawings running now. */
  private memoryInFlight = 0;
  /** The drawings answered on this thread since it last asked for a collection. */
  private readonly answeredGarbage = new GarbageTally(ANSWERING_THREAD_COLLECT_AFTER_BYTES);
  private closed = false;

  constructor(private readonly settings: RenderPoolSettings) {
    if (settings.threads < 1) throw new RangeError("a render pool needs at least one thread");
    this.perThread = drawingCacheBytes(settings.cacheBytes, settings.drawers ?? settings.threads);
    this.slots = settings.threads * (1 + AHEAD);
  }

  draw(drawing: Drawing): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error("the render pool is closed"));
    return new Promise((resolve, reject) => {
      this.waiting.push({ drawing, memory: drawingMemory(drawing), resolve, reject });
      this.dispatch();
    });
  }

  /** Starts every thread now, so the first drawings do not wait for one to load. */
  warm(): void {
    while (!this.closed && this.threads.length < this.settings.threads) this.start();
  }

  /** The drawings the threads hold now (drawn or handed ahead) and their transient memory (draw-memory.ts). */
  inFlight(): { drawings: number; memory: number } {
    return { drawings: this.threads.reduce((sum, thread) => sum + thread.tasks.length, 0), memory: this.memoryInFlight };
  }

  /** The drawing caches summed over the threads; each cache's bound is the sum of the threads' parts. */
  *usage(): Iterable<[CacheName, CacheStats]> {
    for (const name of DRAWING_CACHES) {
      const sum: CacheStats = { entries: 0, bytes: 0, maxBytes: this.perThread[name] * this.settings.threads, hits: 0, misses: 0, evictions: 0 };
      for (const thread of this.threads) {
        const stats = thread.usage.find(([cache]) => cache === name)?.[1];
        if (!stats) continue;
        sum.entries += stats.entries;
        sum.bytes += stats.bytes;
        sum.hits += stats.hits;
        sum.misses += stats.misses;
        sum.evictions += stats.evictions;
      }
      yield [name, sum];
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error("the render pool is closed");
    for (const task of this.waiting.splice(0)) task.reject(stopped);
    for (const thread of this.threads.splice(0)) {
      for (const task of this.drop(thread)) task.reject(stopped);
      thread.worker.terminate();
    }
  }

  /**
   * Hands waiting jobs to free threads, starting threads while there are
   * fewer than the setting, as long as the next job's memory fits beside the
   * drawings in flight (alone, any job fits).
   */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (this.memoryInFlight > 0 && this.memoryInFlight + next.memory > DRAWING_MEMORY_BYTES) return;
      const thread = this.threads.find((candidate) => candidate.tasks.length === 0)
        ?? (this.threads.length < this.settings.threads ? this.start() : undefined)
        ?? this.threads.find((candidate) => candidate.tasks.length <= AHEAD);
      if (!thread) return;
      this.waiting.shift();
      thread.tasks.push(next);
      if (thread.tasks.length === 1) this.startDeadline(thread);
      this.memoryInFlight += next.memory;
      if (runsAlone(next.memory)) this.collectAll();
      const message: ToRenderThread = { type: "draw", id: ++this.nextId, job: next.drawing.job, collect: thread.collections.after(next.drawing) };
      thread.worker.postMessage(message);
    }
  }

  /** Every thread collects its garbage in full before what it is sent next (draw-memory.ts's runsAlone). */
  private collectAll(): void {
    const collect: ToRenderThread = { type: "collect" };
    for (const thread of this.threads) {
      thread.worker.postMessage(collect);
      thread.collections.collectedInFull();
    }
  }

  private startDeadline(thread: RenderThread): void {
    thread.deadline = setTimeout(() => this.died(thread, "its drawing ran past its deadline"), this.settings.drawDeadlineMs ?? DRAW_DEADLINE_MS);
  }

  /** The thread's first drawing is over, however it ended: its memory is free again, and the next one's deadline runs. */
  private finish(thread: RenderThread): Task | undefined {
    const task = thread.tasks.shift();
    clearTimeout(thread.deadline);
    if (task) this.memoryInFlight -= task.memory;
    if (thread.tasks.length > 0) this.startDeadline(thread);
    return task;
  }

  /** Everything the thread held, its memory free again. */
  private drop(thread: RenderThread): Task[] {
    clearTimeout(thread.deadline);
    const tasks = thread.tasks.splice(0);
    for (const task of tasks) this.memoryInFlight -= task.memory;
    return tasks;
  }

  private start(): RenderThread {
    const worker = new Worker(WORKER_URL);
    // A pool left open (a test's app) must not keep the process alive.
    worker.unref();
    const thread: RenderThread = { worker, tasks: [], deadline: undefined, usage: [], collections: new CollectionSchedule() };
    const start: ToRenderThread = { type: "start", cacheBytes: this.perThread };
    worker.postMessage(start);
    worker.addEventListener("message", (event: MessageEvent<FromRenderThread>) => this.answered(thread, event.data));
    worker.addEventListener("error", (event) => this.died(thread, event.message));
    worker.addEventListener("close", () => this.died(thread, "the render thread stopped"));
    this.threads.push(thread);
    return thread;
  }

  private answered(thread: RenderThread, answer: FromRenderThread): void {
    thread.usage = answer.usage;
    const task = this.finish(thread);
    if (task && this.answeredGarbage.add(answeredMemory("bytes" in answer ? answer.bytes.byteLength : 0))) Bun.gc(false);
    if ("bytes" in answer) task?.resolve(answer.bytes);
    else task?.reject(new Error(`drawing failed: ${answer.error}`));
    this.dispatch();
  }

  /** A thread that failed outside a drawing (out of memory, a crash) or is stuck is dropped with its job; the next draw starts another. */
  private died(thread: RenderThread, reason: string): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    thread.worker.terminate();
    // Its first drawing failed with it; those handed ahead never started, and wait for another thread.
    const [failed, ...notStarted] = this.drop(thread);
    failed?.reject(new Error(`a render thread failed: ${reason}`));
    this.waiting.unshift(...notStarted);
    if (!this.closed) this.dispatch();
  }
}

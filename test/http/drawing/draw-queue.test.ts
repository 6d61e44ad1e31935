import { describe, expect, test } from "bun:test";
import { DrawQueue } from "../../../src/http/drawing/draw-queue.ts";
import { HttpError } from "../../../src/http/errors.ts";

/** Draws that finish when the test says: `finish()` ends the oldest running one. */
function heldDraws() {
  const running: Array<() => void> = [];
  const done: string[] = [];
  return {
    done,
    draw: (name: string) => () => new Promise<string>((resolve) => running.push(() => { done.push(name); resolve(name); })),
    async finish(count = 1) {
      for (let i = 0; i < count; i++) {
        running.shift()!();
        await Bun.sleep(0);
      }
    },
    get running() {
      return running.length;
    },
  };
}

function refusal(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("not refused");
}

describe("DrawQueue", () => {
  test("runs at most `concurrency` draws at once; the others start as slots free", async () => {
    const draws = heldDraws();
    const queue = new DrawQueue({ concurrency: 2, perClient: 10, maxUnits: 100 });
    const answers = ["a", "b", "c"].map((name) => queue.run("x", 1, draws.draw(name)));
    expect(draws.running).toBe(2);
    expect(queue.usage()).toEqual({ running: 2, waiting: 1, waitingUnits: 1, refused: { client: 0, queue: 0 } });
    await draws.finish();
    expect(draws.running).toBe(2);
    await draws.finish(2);
    expect(await Promise.all(answers)).toEqual(["a", "b", "c"]);
    expect(queue.usage()).toEqual({ running: 0, waiting: 0, waitingUnits: 0, refused: { client: 0, queue: 0 } });
  });

  test("waiting draws are served round-robin across clients: one client's many do not hold back another's one", async () => {
    const draws = heldDraws();
    const queue = new DrawQueue({ concurrency: 1, perClient: 10, maxUnits: 100 });
    const all = [queue.run("busy", 1, draws.draw("busy 1"))];
    for (let i = 2; i <= 5; i++) all.push(queue.run("busy", 1, draws.draw(`busy ${i}`)));
    all.push(queue.run("quiet", 1, draws.draw("quiet 1")));
    all.push(queue.run("other", 1, draws.draw("other 1")));
    all.push(queue.run("quiet", 1, draws.draw("quiet 2")));
    await draws.finish(8);
    await Promise.all(all);
    expect(draws.done).toEqual(["busy 1", "busy 2", "quiet 1", "other 1", "busy 3", "quiet 2", "busy 4", "busy 5"]);
  });

  test("a client with `perClient` draws waiting is refused with a 503 and Retry-After; others still wait their turn", async () => {
    const draws = heldDraws();
    const queue = new DrawQueue({ concurrency: 1, perClient: 2, maxUnits: 100 });
    const all = [queue.run("busy", 1, draws.draw("running")), queue.run("busy", 1, draws.draw("w1")), queue.run("busy", 1, draws.draw("w2"))];
    const refused = refusal(() => queue.run("busy", 1, draws.draw("w3")));
    expect(refused).toBeInstanceOf(HttpError);
    expect([refused.status, refused.code, refused.headers["Retry-After"]]).toEqual([503, "draw_queue_full", "2"]);
    all.push(queue.run("other", 1, draws.draw("other")));
    expect(queue.usage().refused).toEqual({ client: 1, queue: 0 });
    await draws.finish(4);
    await Promise.all(all);
    expect(draws.done).not.toContain("w3");
  });

  test("the waiting draws are bounded in units; a draw finding nobody waiting waits whatever its cost", async () => {
    const draws = heldDraws();
    const queue = new DrawQueue({ concurrency: 1, perClient: 10, maxUnits: 100 });
    const all = [queue.run("a", 500, draws.draw("running")), queue.run("b", 300, draws.draw("alone, over the bound"))];
    expect(refusal(() => queue.run("c", 1, draws.draw("one unit too many"))).code).toBe("draw_queue_full");
    expect(queue.usage()).toMatchObject({ waiting: 1, waitingUnits: 300, refused: { client: 0, queue: 1 } });
    await draws.finish(2);
    await Promise.all(all);
    const small = [queue.run("a", 60, draws.draw("r")), queue.run("b", 60, draws.draw("60")), queue.run("c", 40, draws.draw("40"))];
    expect(refusal(() => queue.run("d", 1, draws.draw("101"))).code).toBe("draw_queue_full");
    await draws.finish(3);
    await Promise.all(small);
  });

  test("a draw that throws or rejects frees its slot and its units: the next runs and nothing leaks", async () => {
    const draws = heldDraws();
    const queue = new DrawQueue({ concurrency: 1, perClient: 10, maxUnits: 10 });
    const failing = queue.run("a", 5, () => Promise.reject(new Error("encoder failed")));
    const throwing = queue.run("a", 5, () => { throw new Error("drawing failed"); });
    const next = queue.run("b", 5, draws.draw("next"));
    expect(queue.usage()).toMatchObject({ running: 1, waiting: 2, waitingUnits: 10 });
    const [failed, thrown] = await Promise.allSettled([failing, throwing]);
    expect([failed, thrown].map((settled) => settled.status === "rejected" && (settled.reason as Error).message)).toEqual(["encoder failed", "drawing failed"]);
    expect(draws.running).toBe(1);
    await draws.finish();
    expect(await next).toBe("next");
    expect(queue.usage()).toEqual({ running: 0, waiting: 0, waitingUnits: 0, refused: { client: 0, queue: 0 } });
    // The freed units admit a full queue's worth again.
    const again = [queue.run("a", 1, draws.draw("r")), queue.run("b", 10, draws.draw("ten"))];
    await draws.finish(2);
    await Promise.all(again);
  });
});

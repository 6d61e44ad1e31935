// Which drawer the configuration asks for. The choice sits above the kinds
// (the pool, render-pool.ts; in-thread-drawer.ts's drawer on the answering
// thread; small-draws-here.ts, both): each kind imports the contract from
// src/http/drawing/drawer.ts, so the contract's module cannot import a kind.

import type { Config } from "../../config.ts";
import type { Drawer } from "../../http/drawing/drawer.ts";
import { InThreadDrawer } from "./in-thread-drawer.ts";
import { SmallDrawsHere } from "./small-draws-here.ts";

/** The drawer `config` asks for: PENNANT_RENDER_THREADS render threads (the smallest stills drawn here), or none. */
export function makeDrawer(config: Pick<Config, "renderThreads" | "cacheBytes">): Drawer {
  return config.renderThreads > 0
    ? new SmallDrawsHere({ threads: config.renderThreads, cacheBytes: config.cacheBytes })
    : new InThreadDrawer(config.cacheBytes);
}

// Which drawer the configuration asks for. The choice sits above both kinds
// (the pool, render-pool.ts, and in-thread-drawer.ts's drawer on the
// answering thread): each kind imports the contract from
// src/http/drawing/drawer.ts, so the contract's module cannot import a kind.

import type { Config } from "../../config.ts";
import type { Drawer } from "../../http/drawing/drawer.ts";
import { InThreadDrawer } from "./in-thread-drawer.ts";
import { RenderPool } from "./render-pool.ts";

/** The drawer `config` asks for: PENNANT_RENDER_THREADS render threads, or none. */
export function makeDrawer(config: Pick<Config, "renderThreads" | "cacheBytes">): Drawer {
  return config.renderThreads > 0
    ? new RenderPool({ threads: config.renderThreads, cacheBytes: config.cacheBytes })
    : new InThreadDrawer(config.cacheBytes);
}

// One load (bench/http/load.ts: autocannon under Node, its own process)
// against one set-up, with the CPU time of each of its processes over the
// run: every `serve` summed, the proxy apart, PostgreSQL + Redis apart.

import { cpuSeconds } from "../report/proc.ts";
import { runLoad } from "../http/load.ts";
import type { ScenarioParams } from "../http/scenarios.mjs";
import { cpuBetween, cpuByPid } from "./service-cpu.ts";
import type { Setup } from "./setups.ts";

export interface Measured {
  responses: number;
  seconds: number;
  /** Answers outside 2xx, socket errors and timeouts. */
  errors: number;
  /** CPU seconds over the run: every serve process, the proxy, PostgreSQL + Redis. */
  serverCpu: number;
  proxyCpu: number;
  serviceCpu: number;
}

export interface LoadSettings {
  seconds: number;
  connections: number;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** `servicePids` lists PostgreSQL's and Redis's processes now (empty for SQLite). */
export async function measureLoad(setup: Setup, scenario: string, params: ScenarioParams, settings: LoadSettings, servicePids: () => number[]): Promise<Measured> {
  const serverCpu = () => sum(setup.servers.map((s) => cpuSeconds(s.pid)));
  const proxyCpu = () => (setup.proxy ? cpuSeconds(setup.proxy.pid) : 0);
  const servicesBefore = cpuByPid(servicePids());
  const [serverBefore, proxyBefore] = [serverCpu(), proxyCpu()];
  const result = await runLoad({ url: setup.url, connections: settings.connections, duration: settings.seconds, scenario, params }, setup.servers[0]!.pid);
  const [serverAfter, proxyAfter] = [serverCpu(), proxyCpu()];
  return {
    responses: result.responses,
    seconds: result.seconds,
    errors: result.errors,
    serverCpu: serverAfter - serverBefore,
    proxyCpu: proxyAfter - proxyBefore,
    serviceCpu: cpuBetween(servicesBefore, cpuByPid(servicePids())),
  };
}

/** Several runs of one cell added up: the rates and costs are over all of them. */
export function addUp(runs: Measured[]): Measured {
  return {
    responses: sum(runs.map((r) => r.responses)),
    seconds: sum(runs.map((r) => r.seconds)),
    errors: sum(runs.map((r) => r.errors)),
    serverCpu: sum(runs.map((r) => r.serverCpu)),
    proxyCpu: sum(runs.map((r) => r.proxyCpu)),
    serviceCpu: sum(runs.map((r) => r.serviceCpu)),
  };
}

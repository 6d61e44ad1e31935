// What bench/push-cpu.ts (SQLite) and bench/pg-push-cpu.ts (PostgreSQL) share:
// signed server updates handed to an app's handle in waves, and the CPU each
// push cost this process (process.cpuUsage()), printed with the load average.

import { signedUpdate, type SignedServer } from "../http/scenarios.mjs";
import { loadAverage } from "../report/machine.ts";

export type Handle = (request: Request) => Promise<Response>;

/** Pushes at once per wave: what group commit batches. */
export const AT_ONCE = 32;

export const loadNow = () => loadAverage().map((v) => v.toFixed(2)).join(" / ");
export const ms = (value: number) => `${value.toFixed(3)} ms`;

async function pushOne(handle: Handle, server: SignedServer, n: number, run: string): Promise<void> {
  const { method, path, headers, body } = signedUpdate(server, n, Date.now(), { run });
  const response = await handle(new Request(`http://127.0.0.1${path}`, { method, headers, body }));
  if (response.status !== 200) throw new Error(`push ${n} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/** Sends `count` signed updates, `atOnce` at a time, spread over the seeded tokens; with a label, prints CPU and wall time per push. */
export async function sendPushes(handle: Handle, servers: SignedServer[], count: number, atOnce: number, run: string, label?: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let first = 0; first < count; first += atOnce) {
    const wave = Array.from({ length: Math.min(atOnce, count - first) }, (_, i) => first + i);
    await Promise.all(wave.map((n) => pushOne(handle, servers[n % servers.length]!, n, run)));
  }
  const spent = process.cpuUsage(cpu);
  if (!label) return;
  const per = (micros: number) => ms(micros / 1000 / count);
  console.log(
    `${label}: ${per(spent.user + spent.system)} CPU per push (user ${per(spent.user)}, system ${per(spent.system)}), ` +
      `${ms((performance.now() - started) / count)} wall; load average ${loadNow()}`,
  );
}

// A real nginx for tests, from Debian's nginx package: one process in the
// foreground (no master and workers, so that one kill stops it all), with its
// configuration, temporary files and pid in a temporary folder, listening on
// a free loopback port, stopped after the test file (or the test) that
// started it (cleanup.ts). The test gives the `http { }` block's content.

import { chmodSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { tempDir, track } from "./cleanup.ts";
import { findNginx, missingPackage } from "./debian.ts";
import { freePort } from "./services.ts";

export interface Nginx {
  /** http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}

/** Starts nginx with `http` (which must `listen` on the port given) as its http block; resolves once that port accepts connections. */
export async function startNginx(http: (port: number) => string): Promise<Nginx> {
  const program = findNginx();
  if (program === undefined) throw missingPackage("nginx", "nginx");
  const dir = tempDir("nginx");
  // Should nginx run as nobody (as a root nginx's workers do), it still reaches its temporary folders in here.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `${kind}_temp_path ${join(dir, kind)};`).join("\n  ");
  const config = `daemon off;
master_process off;
pid ${join(dir, "nginx.pid")};
error_log stderr warn;
events { worker_connections 512; }
http {
  access_log off;
  ${temporary}
  ${http(port)}
}
`;
  writeFileSync(join(dir, "nginx.conf"), config);
  let output = "";
  const child = Bun.spawn([program, "-p", dir, "-c", join(dir, "nginx.conf"), "-e", "stderr"], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  void (async () => {
    for await (const chunk of child.stderr) output += new TextDecoder().decode(chunk);
  })();
  const close = track(
    async () => {
      child.kill("SIGKILL");
      await child.exited;
    },
    () => child.kill("SIGKILL"),
  );
  // Ready once it accepts a connection: a request would already reach an upstream and count for its health.
  for (let waited = 0; !(await accepts(port)); waited += 25) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output.trim()}`);
    if (waited > 5_000) throw new Error(`nginx did not listen within 5 s: ${output.trim()}`);
    await Bun.sleep(25);
  }
  return { url: `http://127.0.0.1:${port}`, close };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

// The round-robin in front of two Pennant instances for the backends bench
// (nginx is not on every bench machine): a plain Bun.serve, a process of its
// own so that its CPU is counted apart from theirs, that hands request i to
// upstream i mod N and passes the answer back untouched.
//
//   PENNANT_BENCH_UPSTREAMS=http://127.0.0.1:A,http://127.0.0.1:B bun bench/backends/proxy.ts serve

const upstreams = (process.env.PENNANT_BENCH_UPSTREAMS ?? "").split(",").filter((url) => url !== "");
if (upstreams.length === 0) {
  console.error("error: PENNANT_BENCH_UPSTREAMS names no upstream");
  process.exit(2);
}

let next = 0;
const server = Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  fetch(request) {
    const { pathname, search } = new URL(request.url);
    const upstream = upstreams[next++ % upstreams.length]!;
    const headers = new Headers(request.headers);
    headers.delete("host");
    // decompress: false passes an encoded body on as it came, with its Content-Encoding.
    return fetch(upstream + pathname + search, { method: request.method, headers, body: request.body, redirect: "manual", decompress: false });
  },
});
console.log(`listening on http://127.0.0.1:${server.port}`);

// One HTTP/1.1 request over a raw socket, run by Node (not Bun): Node's socket
// reports a reset (EPIPE) the way Java's and most clients do, where Bun's reads
// the answer first. Writes `sendBytes` of a body announced as `size` bytes, then
// prints {received, error} as JSON once the server closes or the deadline passes.
//
//   node raw-http-client.mjs <port> <request head without Content-Length> <size> <sendBytes>

import { connect } from "node:net";

const [port, head, size, sendBytes] = process.argv.slice(2);
const socket = connect(Number(port), "127.0.0.1");
let received = "";
let done = false;
const finish = (error) => {
  if (done) return;
  done = true;
  socket.destroy();
  process.stdout.write(JSON.stringify({ received, ...(error ? { error } : {}) }));
  process.exit(0);
};
setTimeout(() => finish("no answer before the deadline"), 4000);
socket.on("data", (data) => (received += data.toString("latin1")));
socket.on("close", () => finish());
socket.on("error", (error) => finish(error.code ?? error.message));
socket.write(`${head}Content-Length: ${size}\r\n\r\n`);
socket.write(Buffer.alloc(Number(sendBytes), "a"));

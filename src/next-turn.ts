// Yielding the answering thread for a turn of the event loop: what waits
// (I/O first: requests, answers) runs before the caller goes on. A long piece
// of work done in slices calls it between slices.

/** Resolves on the event loop's next turn (setImmediate: after pending I/O), not as a microtask. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

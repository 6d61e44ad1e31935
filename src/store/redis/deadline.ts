// Bun's RedisClient has no per-command timeout: every call to Redis is raced
// against one of ours, so that a Redis that stopped answering holds nothing up.

/** Redis did not answer within the deadline. */
export class RedisDeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "RedisDeadlineError";
  }
}

/** `work`, or a RedisDeadlineError once `ms` have passed without it settling. */
export function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: Timer | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisDeadlineError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

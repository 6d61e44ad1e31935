// Conditions a write can refuse; the caller maps them onto its own errors.

/** The record belongs to another token. */
export class NotOwnerError extends Error {
  constructor(readonly kind: "server" | "plugin") {
    super(`this ${kind} is bound to another token`);
    this.name = "NotOwnerError";
  }
}

/** The signature was already used by an accepted request other than this one. */
export class ReplayError extends Error {
  constructor() {
    super("this signature was already accepted for another request");
    this.name = "ReplayError";
  }
}

/** Creating the record would give its token more records than the limit allows. */
export class RecordLimitError extends Error {
  constructor(
    readonly kind: "server" | "plugin",
    readonly limit: number,
  ) {
    super(`this token already owns ${limit} ${kind}s, the most allowed`);
    this.name = "RecordLimitError";
  }
}

/** Open registration has made as many tokens as PENNANT_REGISTRATION_MAX allows. */
export class RegistrationFullError extends Error {
  constructor(readonly limit: number) {
    super(`open registration has made ${limit} tokens, the most allowed`);
    this.name = "RegistrationFullError";
  }
}

/** The token's records would hold more stored JSON than PENNANT_MAX_BYTES_PER_TOKEN allows. */
export class StorageLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly wouldHold: number,
  ) {
    super(`this token's records would hold ${wouldHold} bytes of JSON, over the ${limit} allowed`);
    this.name = "StorageLimitError";
  }
}

/** No active token has this id (a revocation of one never made, or already revoked). */
export class UnknownTokenError extends Error {
  constructor() {
    super("no active token has this id");
    this.name = "UnknownTokenError";
  }
}

// A server's public page switched off or on by its owner (a signed request,
// accepted once like every request that changes something): the request is
// remembered and the flag written in one transaction, only on the row the
// token owns, so no ownership is read before it is written. A push never
// writes the flag (each backend's push sets only the columns it was sent).

import { and, eq } from "drizzle-orm";
import type { ReplayRecord, ReplayStatus } from "../auth/replay.ts";
import { rows, type QueryContext, type RememberRequest, type Steps } from "./query-steps.ts";

/** Shows or hides the page of server `uuid`, for the token `tokenId`. */
export interface PageSwitch {
  uuid: string;
  tokenId: number;
  shown: boolean;
  replay: ReplayRecord;
  now: number;
}

/** The token has pushed no data for this server (another token's server reads the same). */
export class UnknownServerError extends Error {
  constructor() {
    super("this token has pushed no data for this server");
    this.name = "UnknownServerError";
  }
}

/** Runs in one transaction; `remember` is the backend's (RememberRequest). */
export function* switchServerPage(q: QueryContext, remember: RememberRequest, change: PageSwitch): Steps<ReplayStatus> {
  const { db, tables: { servers } } = q;
  if ((yield* remember(q, change.replay, change.now)) === "duplicate") return "duplicate";
  const switched = yield* rows(
    db.update(servers).set({ pageEnabled: change.shown }).where(and(eq(servers.uuid, change.uuid), eq(servers.tokenId, change.tokenId))).returning({ uuid: servers.uuid }),
  );
  // Thrown, so the transaction forgets the request's key with everything else.
  if (switched.length === 0) throw new UnknownServerError();
  return "new";
}

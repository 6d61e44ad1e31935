const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID in its canonical lower-case form, or null when the text is not one. */
export function parseUuid(raw: string): string | null {
  const uuid = raw.trim().toLowerCase();
  return UUID.test(uuid) ? uuid : null;
}

// What an error may say about a postgres:// or redis:// URL: the host, port
// and database it names, never its password (errors reach logs and terminals).

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

import type pg from "pg";

// Named prepared statements for Postgres. Kysely hands pg the SQL text and its parameters; pg then sends an
// unnamed statement, which Postgres parses and plans on every call (about 4× the cost of executing the
// session lookup itself). Naming a statement makes each pooled connection prepare it once.
//
// Only texts seen a few times get a name (hot paths; not one-off bulk inserts whose text depends on the row
// count), and the number of names is capped, because every connection keeps each statement it prepared.
// A statement invalidated by a schema change under a running daemon (Postgres: "cached plan must not
// change result type") is retried unnamed, and that text is never named again.

const HOT_AFTER = 3;
const MAX_NAMED = 500;
const MAX_TRACKED = 5000;

export function createStatementNamer(): (text: string) => string | undefined {
  const seen = new Map<string, number | string>();
  let named = 0;
  return (text) => {
    const known = seen.get(text);
    if (typeof known === "string") return known;
    const count = (known ?? 0) + 1;
    if (count >= HOT_AFTER && named < MAX_NAMED) {
      named += 1;
      const name = `authd_${named}`;
      seen.set(text, name);
      return name;
    }
    if (seen.size < MAX_TRACKED || known !== undefined) seen.set(text, count);
    return undefined;
  };
}

type QueryFunction = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

/** Make a pooled client name the hot statements Kysely sends it (the (text, values) promise form only). */
export function preparePooledClient(
  client: pg.PoolClient,
  nameFor: (text: string) => string | undefined,
  forget: (text: string) => void,
): void {
  const original = client.query.bind(client) as unknown as (...args: unknown[]) => Promise<pg.QueryResult>;
  const wrapped: QueryFunction = (text, values) => {
    const name = typeof text === "string" && Array.isArray(values) ? nameFor(text) : undefined;
    if (!name) return original(text, values);
    return original({ name, text, values }).catch((error: { code?: string }) => {
      if (error?.code !== "0A000") throw error;
      forget(text);
      return original(text, values);
    });
  };
  // Other call shapes (callbacks, cursors, config objects) go straight through.
  (client as unknown as { query: unknown }).query = (...args: unknown[]) =>
    args.length === 2 && typeof args[0] === "string" && Array.isArray(args[1])
      ? wrapped(args[0], args[1])
      : original(...args);
}

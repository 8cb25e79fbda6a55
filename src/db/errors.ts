// Recognising constraint violations across dialects, so services can turn a lost race on a unique
// column into the right refusal instead of a 500.

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  constraint?: string;
  detail?: string;
}

/** The column (or constraint name) behind a unique violation, or null when the error is something else. */
export function uniqueViolationTarget(error: unknown): string | null {
  const e = error as DriverError | null;
  if (!e || typeof e !== "object") return null;
  if (e.code === "23505") return `${e.constraint ?? ""} ${e.detail ?? ""}`;
  if (
    e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    /UNIQUE constraint failed/.test(e.message ?? "")
  ) {
    return e.message ?? "";
  }
  return null;
}

export function isUniqueViolationOn(error: unknown, column: string): boolean {
  const target = uniqueViolationTarget(error);
  return target?.includes(column) === true;
}

/** The driver's code for a NOT NULL violation (SQLITE_CONSTRAINT_NOTNULL, Postgres 23502), or null. */
export function notNullViolationCode(error: unknown): string | null {
  const e = error as DriverError | null;
  if (!e || typeof e !== "object") return null;
  if (e.code === "23502" || e.code === "SQLITE_CONSTRAINT_NOTNULL") return e.code;
  return null;
}

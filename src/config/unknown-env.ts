import { ENV_BINDINGS, SOCIAL_ENV, SOCIAL_SUFFIXES } from "./env-bindings.ts";

// A misspelt variable (AUTH_DATABSE_URL) is otherwise silently ignored and the default used (SQLite beside
// the process). serve warns about each unknown AUTH_* name; `authd config check` counts it as a problem. It is
// not a refusal at start: a deployment file written for a newer release must not stop an older binary.

/** Variables read outside ENV_BINDINGS. */
const OTHER_KNOWN = ["AUTH_CONFIG"];

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** Candidates for a social variable keep the provider id the operator wrote (AUTH_SOCIAL_GITHUB_CLIENTID). */
function candidatesFor(name: string): string[] {
  const known = [...ENV_BINDINGS.map((b) => b.env), ...OTHER_KNOWN];
  if (!name.startsWith("AUTH_SOCIAL_")) return known;
  const id = name.slice("AUTH_SOCIAL_".length).split("_")[0] || "<ID>";
  return [...known, ...SOCIAL_SUFFIXES.map((suffix) => `AUTH_SOCIAL_${id}_${suffix}`)];
}

/** The closest known variable name, when one is close enough to be a typo of it. */
export function closestVariable(name: string): string | null {
  let best = "";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidatesFor(name)) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(3, Math.floor(name.length / 4)) ? best : null;
}

/** One line per AUTH_* variable authd does not read, naming the closest one it does. */
export function unknownVariables(env: Record<string, string | undefined>): string[] {
  const known = new Set([...ENV_BINDINGS.map((b) => b.env), ...OTHER_KNOWN]);
  return Object.keys(env)
    .filter((name) => name.startsWith("AUTH_") && !known.has(name) && !SOCIAL_ENV.test(name))
    .sort()
    .map((name) => {
      const closest = closestVariable(name);
      return `${name}: unknown variable, ignored${closest ? ` (did you mean ${closest}?)` : ""}`;
    });
}

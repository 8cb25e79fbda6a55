// Answers made once and handed out many times (get-session's, http/session-answers.ts) are also serialized
// once: the first time one is sent, its JSON text is kept beside it, by identity. Only frozen answers are
// kept, so the text cannot go stale: a changed answer is a new object.

const texts = new WeakMap<object, string | null>();

/** Freeze an answer (and the objects it holds directly) and mark its JSON text as worth keeping. */
export function keepJSON<T extends object>(answer: T): T {
  for (const value of Object.values(answer)) if (typeof value === "object" && value !== null) Object.freeze(value);
  Object.freeze(answer);
  texts.set(answer, null);
  return answer;
}

/** The JSON text of a kept answer (made on its first call), or undefined for any other value. */
export function keptJSON(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const known = texts.get(value);
  if (known === undefined) return undefined;
  if (known !== null) return known;
  const text = JSON.stringify(value);
  texts.set(value, text);
  return text;
}

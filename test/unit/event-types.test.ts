import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AUDITED_EVENT_TYPES } from "../../src/services/security-event-types.ts";
import { describeUnknownTypes, unknownEventTypes } from "../../src/services/webhooks/webhooks.ts";

// The list webhooks accept is the list operators read: docs/events.md's table of event types.

describe("event types", () => {
  it("are the types docs/events.md lists, in the same order", () => {
    const text = readFileSync(new URL("../../docs/events.md", import.meta.url), "utf8");
    const table = text.slice(text.indexOf("## Event types"), text.indexOf("## Reading the log"));
    const documented = table
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([a-z_]+)`/g)].map((match) => match[1]));
    expect(documented).toEqual(AUDITED_EVENT_TYPES);
  });

  it("a webhook endpoint may ask for known types and *, nothing else", () => {
    expect(unknownEventTypes(["*", "sign_in", "user_banned"])).toEqual([]);
    expect(unknownEventTypes(["sign_in", "sign-in", "origin_refused", "webhook.test"])).toEqual([
      "sign-in",
      "origin_refused",
      "webhook.test",
    ]);
    expect(describeUnknownTypes(["a", "b"])).toMatch(/^unknown event types a, b; known types: sign_up, /);
  });
});

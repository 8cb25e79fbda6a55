import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/load.ts";
import type { AuthContext } from "../../src/context.ts";
import { relyingParty, relyingPartyProblem } from "../../src/services/passkeys/relying-party.ts";

// Where passkeys belong: the rp id and expected origins come from configuration, defaulting from the
// base URL; values browsers would refuse are caught before the first ceremony.

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

/** Just what relyingParty reads from a context. */
const contextOf = (env: Record<string, string>) =>
  ({ config: loadConfig({ env }), baseURL: env.AUTH_BASE_URL ?? "http://localhost:3000" }) as unknown as AuthContext;

describe("passkey relying party configuration", () => {
  it("defaults the rp id and origin from the base URL", () => {
    expect(relyingParty(contextOf({ AUTH_BASE_URL: "https://auth.example.com" }))).toEqual({
      id: "auth.example.com",
      name: "authd",
      origins: ["https://auth.example.com"],
    });
  });

  it("takes AUTH_PASSKEY_RP_ID and a comma-separated AUTH_PASSKEY_ORIGIN over the base URL", () => {
    const rp = relyingParty(
      contextOf({
        AUTH_BASE_URL: "https://auth.example.com",
        AUTH_PASSKEY_RP_ID: "example.com",
        AUTH_PASSKEY_ORIGIN: "https://app.example.com, https://www.example.com/",
      }),
    );
    expect(rp).toMatchObject({ id: "example.com", origins: ["https://app.example.com", "https://www.example.com"] });
  });

  it("refuses an IP address as rp id, and an origin that is not one, with one line each", () => {
    expect(problemsOf({ AUTH_PASSKEY_RP_ID: "127.0.0.1", AUTH_PASSKEY_ORIGIN: "app.example.com" })).toEqual([
      expect.stringMatching(/^AUTH_PASSKEY_RP_ID: "127\.0\.0\.1" is not a domain name/),
      expect.stringMatching(/^AUTH_PASSKEY_ORIGIN: "app\.example\.com" is not an origin/),
    ]);
    expect(problemsOf({ AUTH_PASSKEY: "maybe" })).toEqual(["AUTH_PASSKEY: expected on or off"]);
  });

  it("warns when the base URL would make the rp id an IP address browsers refuse", () => {
    expect(relyingPartyProblem(contextOf({ AUTH_BASE_URL: "http://127.0.0.1:3000" }))).toContain(
      "set AUTH_PASSKEY_RP_ID",
    );
    expect(relyingPartyProblem(contextOf({ AUTH_BASE_URL: "http://[::1]:3000" }))).not.toBeNull();
    expect(relyingPartyProblem(contextOf({ AUTH_BASE_URL: "http://localhost:3000" }))).toBeNull();
  });
});

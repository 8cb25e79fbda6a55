import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_BINDINGS } from "../../src/config/env-bindings.ts";
import { configReference, configReferenceMarkdown } from "../../src/config/reference.ts";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("README configuration reference", () => {
  it("carries the table generated from the config schema (run `bun scripts/readme-config.ts` when this fails)", () => {
    expect(readme).toContain(configReferenceMarkdown());
  });

  it("documents every environment variable and every key of the contract", () => {
    for (const binding of ENV_BINDINGS) expect(readme, binding.env).toContain(`\`${binding.env}\``);
    for (const variable of [
      "AUTH_HOST",
      "AUTH_PORT",
      "AUTH_BASE_URL",
      "AUTH_SECRET",
      "AUTH_DATABASE_URL",
      "AUTH_REDIS_URL",
      "AUTH_SMTP_URL",
      "AUTH_MAIL_FROM",
      "AUTH_SERVER_TOKEN",
      "AUTH_TRUSTED_ORIGINS",
      "AUTH_RATE_LIMIT",
      "AUTH_REQUIRE_EMAIL_VERIFICATION",
      "AUTH_SEND_VERIFICATION_ON_SIGN_UP",
      "AUTH_CHANGE_EMAIL",
      "AUTH_DELETE_USER",
      "AUTH_DELETE_USER_VERIFICATION",
      "AUTH_TEAMS",
      "AUTH_API_KEY_METADATA",
      "AUTH_LOG_LEVEL",
    ]) {
      expect(readme, variable).toContain(variable);
    }
    expect(configReference().length).toBeGreaterThan(40);
  });
});

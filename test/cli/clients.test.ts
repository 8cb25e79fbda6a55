import { afterAll, beforeAll, expect, it } from "vitest";
import { sha256Base64Url } from "../../src/crypto/random.ts";
import { eventsOfType } from "../helpers/audit.ts";
import { createTestContext, describeEachDialect, type TestContext } from "../helpers/context.ts";
import { runCli } from "./run.ts";

// authd clients, run as an operator runs them: the secret is printed once and kept only as a digest.

interface ClientJSON {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  id_token_signed_response_alg: string;
  token_endpoint_auth_method: string;
}

describeEachDialect("authd clients", (dialect) => {
  let t: TestContext;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestContext({ dialect });
    env = { AUTH_DATABASE_URL: t.ctx.config.databaseURL };
  });
  afterAll(() => t.close());

  it("adds a confidential client, prints its secret once and keeps only its digest", async () => {
    const added = await runCli(
      [
        "clients",
        "add",
        "--name",
        "Grafana",
        "--redirect-uri",
        "https://grafana.example.com/login/generic_oauth",
        "--redirect-uri",
        "https://grafana2.example.com/login/generic_oauth",
        "--post-logout-redirect-uri",
        "https://grafana.example.com/login",
        "--json",
      ],
      { env },
    );
    expect(added.code, added.stderr).toBe(0);
    const client = added.json<ClientJSON>();
    expect(client.client_secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(client.redirect_uris).toHaveLength(2);
    expect(client.id_token_signed_response_alg).toBe("RS256");
    expect(client.token_endpoint_auth_method).toBe("client_secret_basic");
    const row = await t.ctx.db
      .selectFrom("oauthClient")
      .selectAll()
      .where("id", "=", client.client_id)
      .executeTakeFirst();
    expect(row?.secretHash).toBe(sha256Base64Url(client.client_secret ?? ""));
    expect(JSON.stringify(row)).not.toContain(client.client_secret);

    const shown = await runCli(["clients", "show", client.client_id, "--json"], { env });
    expect(shown.json<ClientJSON>()).not.toHaveProperty("client_secret");
    const listed = await runCli(["clients", "list", "--json"], { env });
    expect(listed.json<ClientJSON[]>().map((c) => c.client_id)).toContain(client.client_id);

    const rotated = await runCli(["clients", "rotate-secret", client.client_id, "--json"], { env });
    const secret = rotated.json<{ client_secret: string }>().client_secret;
    expect(secret).not.toBe(client.client_secret);
    const after = await t.ctx.db
      .selectFrom("oauthClient")
      .select("secretHash")
      .where("id", "=", client.client_id)
      .executeTakeFirst();
    expect(after?.secretHash).toBe(sha256Base64Url(secret));

    const removed = await runCli(["clients", "remove", client.client_id, "--json"], { env });
    expect(removed.code).toBe(0);
    const again = await runCli(["clients", "show", client.client_id], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("OAuth client not found");
  });

  it("adds a public client with no secret and another ID token algorithm; it has no secret to rotate", async () => {
    const added = await runCli(
      [
        "clients",
        "add",
        "--name",
        "CLI",
        "--public",
        "--id-token-alg",
        "EdDSA",
        "--redirect-uri",
        "http://127.0.0.1/callback",
        "--json",
      ],
      { env },
    );
    expect(added.code, added.stderr).toBe(0);
    const client = added.json<ClientJSON>();
    expect(client).not.toHaveProperty("client_secret");
    expect(client.token_endpoint_auth_method).toBe("none");
    expect(client.id_token_signed_response_alg).toBe("EdDSA");
    const rotated = await runCli(["clients", "rotate-secret", client.client_id], { env });
    expect(rotated.code).toBe(1);
    expect(rotated.stderr).toContain("public client has no secret");
  });

  it("refuses redirect URIs that could not be matched exactly or safely", async () => {
    const refused = [
      ["https://app.example.com/cb#frag", "fragment"],
      ["https://user:pw@app.example.com/cb", "user information"],
      ["https://APP.example.com/cb", "normal form"],
      ["https://app.example.com", "normal form"],
      ["javascript:alert(1)", "https URL"],
      ["com.example.app:/cb", "https URL"],
      ["/relative", "not an absolute URL"],
    ];
    for (const [uri, problem] of refused) {
      const result = await runCli(["clients", "add", "--name", "X", "--redirect-uri", uri], { env });
      expect(result.code, uri).toBe(1);
      expect(result.stderr, uri).toContain(problem);
    }
    const none = await runCli(["clients", "add", "--name", "X"], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--redirect-uri");
    const alg = await runCli(
      ["clients", "add", "--name", "X", "--redirect-uri", "https://a.example/", "--id-token-alg", "HS256"],
      { env },
    );
    expect(alg.code).toBe(2);
    expect(alg.stderr).toContain("--id-token-alg");
  });

  it("updates a client's name and URIs, keeps what it was not told, and records each change as the CLI's", async () => {
    const added = await runCli(
      ["clients", "add", "--name", "Old", "--redirect-uri", "https://old.example.com/cb", "--json"],
      { env },
    );
    const id = added.json<ClientJSON>().client_id;
    const updated = await runCli(
      [
        "clients",
        "update",
        id,
        "--name",
        "New",
        "--redirect-uri",
        "https://new.example.com/cb",
        "--redirect-uri",
        "https://new.example.com/cb2",
        "--skip-consent",
        "--json",
      ],
      { env },
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json<ClientJSON & { client_name: string; skip_consent: boolean }>()).toMatchObject({
      client_name: "New",
      redirect_uris: ["https://new.example.com/cb", "https://new.example.com/cb2"],
      post_logout_redirect_uris: [],
      skip_consent: true,
    });
    const asked = await runCli(["clients", "update", id, "--no-skip-consent", "--json"], { env });
    expect(asked.json<{ skip_consent: boolean; client_name: string }>()).toMatchObject({
      skip_consent: false,
      client_name: "New",
    });
    const refused = await runCli(["clients", "update", id, "--redirect-uri", "https://x.example/cb#f"], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("fragment");
    const [event] = (await eventsOfType(t.ctx, "oidc_client_updated")).filter((e) => e.data.includes(id));
    expect(event).toMatchObject({ actorType: "cli", actorId: null, subjectId: null });
    expect(JSON.parse(event.data)).toEqual({
      clientId: id,
      fields: ["client_name", "redirect_uris", "skip_consent"],
    });
    expect((await eventsOfType(t.ctx, "oidc_client_created")).some((e) => e.data.includes(id))).toBe(true);
  });
});

import { Command } from "commander";
import * as z from "zod";
import { isAuthError } from "../../errors.ts";
import {
  addOAuthClient,
  listClients,
  type OAuthClient,
  removeOAuthClient,
  requireOAuthClient,
  rotateClientSecret,
  toOAuthClientWire,
  updateClient,
} from "../../services/oidc-provider/clients.ts";
import { formatFields, formatTable, writeLines } from "../format.ts";
import { createCommand, parseFlags, printJSON, UserError, withContext } from "../shared.ts";

// authd clients: the applications that sign their users in through authd's OpenID Provider (docs/oidc.md).
// A confidential client's secret is printed once, when made or rotated; authd keeps only its digest.

const Flags = z.object({ json: z.boolean().optional(), config: z.string().optional() });
const AddFlags = Flags.extend({
  name: z.string().min(1, "a client needs a name"),
  redirectUri: z.array(z.string()).min(1, "name at least one redirect URI"),
  postLogoutRedirectUri: z.array(z.string()).default([]),
  idTokenAlg: z.enum(["RS256", "ES256", "EdDSA"]).default("RS256"),
  public: z.boolean().optional(),
  skipConsent: z.boolean().optional(),
  backchannelLogoutUri: z.string().optional(),
});

const UpdateFlags = Flags.extend({
  name: z.string().min(1, "a client needs a name").optional(),
  redirectUri: z.array(z.string()).optional(),
  postLogoutRedirectUri: z.array(z.string()).optional(),
  skipConsent: z.boolean().optional(),
  backchannelLogoutUri: z.union([z.string(), z.literal(false)]).optional(),
});

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** A refusal of the service is the operator's to fix: one line, exit 1. */
async function operatorFixable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAuthError(error) && error.status < 500) throw new UserError(error.message);
    throw error;
  }
}

function describe(client: OAuthClient): string[] {
  const wire = toOAuthClientWire(client);
  return formatFields({
    client_id: wire.client_id,
    name: wire.client_name,
    type: client.isPublic ? "public (PKCE, no secret)" : "confidential",
    redirect_uris: wire.redirect_uris.join(" "),
    post_logout_redirect_uris: wire.post_logout_redirect_uris.join(" ") || "(none)",
    id_token_alg: wire.id_token_signed_response_alg,
    skip_consent: wire.skip_consent,
    backchannel_logout_uri: wire.backchannel_logout_uri ?? "(none)",
    created: wire.created_at,
  });
}

const add = createCommand("add", "register a client; prints its client_id and, once, its client_secret")
  .requiredOption("--name <name>", "the name users see on the consent page")
  .option("--redirect-uri <url>", "where codes are sent, exactly (repeat for more)", collect)
  .option("--post-logout-redirect-uri <url>", "where RP-initiated logout may return, exactly (repeat)", collect)
  .option("--id-token-alg <alg>", "ID token signature: RS256 (default), ES256 or EdDSA")
  .option("--public", "a public client (single-page or native app): no secret, PKCE required")
  .option("--skip-consent", "a first-party client: users are not asked to consent")
  .option(
    "--backchannel-logout-uri <url>",
    "where authd POSTs a signed logout token whenever the user's session at authd ends",
  )
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(AddFlags, { ...raw, redirectUri: raw.redirectUri ?? [] });
    await withContext(flags, async (ctx) => {
      const { client, secret } = await operatorFixable(
        addOAuthClient(ctx, {
          name: flags.name,
          redirectURIs: flags.redirectUri,
          postLogoutRedirectURIs: flags.postLogoutRedirectUri,
          idTokenAlg: flags.idTokenAlg,
          isPublic: flags.public ?? false,
          skipConsent: flags.skipConsent ?? false,
          backchannelLogoutURI: flags.backchannelLogoutUri ?? null,
        }),
      );
      const wire = toOAuthClientWire(client);
      if (flags.json) return printJSON(secret === null ? wire : { ...wire, client_secret: secret });
      writeLines(...describe(client));
      if (secret !== null)
        writeLines(
          `client_secret: ${secret}`,
          "keep the secret: it is not shown again (authd clients rotate-secret makes a new one)",
        );
    });
  });

const list = createCommand("list", "list the registered clients")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const clients = await listClients(ctx);
      if (flags.json) return printJSON(clients.map(toOAuthClientWire));
      writeLines(
        formatTable(clients, [
          { header: "client_id", value: (c) => c.id },
          { header: "name", value: (c) => c.name },
          { header: "type", value: (c) => (c.isPublic ? "public" : "confidential") },
          { header: "redirect URIs", value: (c) => c.redirectURIs.join(" ") },
        ]),
      );
    });
  });

const show = createCommand("show", "show one client")
  .argument("<client_id>", "the client's id")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const client = await operatorFixable(requireOAuthClient(ctx, id));
      if (flags.json) return printJSON(toOAuthClientWire(client));
      writeLines(...describe(client));
    });
  });

const update = createCommand("update", "change a client's name, URIs or consent (a list given replaces the old one)")
  .argument("<client_id>", "the client's id")
  .option("--name <name>", "the name users see on the consent page")
  .option("--redirect-uri <url>", "where codes are sent, exactly (repeat for more; replaces the list)", collect)
  .option(
    "--post-logout-redirect-uri <url>",
    "where RP-initiated logout may return (repeat; replaces the list)",
    collect,
  )
  .option("--skip-consent", "a first-party client: users are not asked to consent")
  .option("--no-skip-consent", "users are asked to consent")
  .option("--backchannel-logout-uri <url>", "where authd POSTs a signed logout token when the user signs out")
  .option("--no-backchannel-logout-uri", "send no logout tokens")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(UpdateFlags, raw);
    await withContext(flags, async (ctx) => {
      const changes = {
        name: flags.name,
        redirectURIs: flags.redirectUri,
        postLogoutRedirectURIs: flags.postLogoutRedirectUri,
        skipConsent: flags.skipConsent,
        backchannelLogoutURI: flags.backchannelLogoutUri === false ? null : flags.backchannelLogoutUri,
      };
      const client = await operatorFixable(updateClient(ctx, id, changes));
      if (flags.json) return printJSON(toOAuthClientWire(client));
      writeLines(...describe(client));
    });
  });

const rotateSecret = createCommand(
  "rotate-secret",
  "give a confidential client a new secret (the old one stops working)",
)
  .argument("<client_id>", "the client's id")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      const { client, secret } = await operatorFixable(rotateClientSecret(ctx, id));
      if (flags.json) return printJSON({ client_id: client.id, client_secret: secret });
      writeLines(`client_secret: ${secret}`, "keep the secret: it is not shown again");
    });
  });

const remove = createCommand("remove", "remove a client with its grants, tokens and consents")
  .argument("<client_id>", "the client's id")
  .option("--json", "print only JSON")
  .action(async (id: string, raw) => {
    const flags = parseFlags(Flags, raw);
    await withContext(flags, async (ctx) => {
      await operatorFixable(removeOAuthClient(ctx, id));
      if (flags.json) printJSON({ removed: id });
      else writeLines(`removed client ${id}`);
    });
  });

export const clientsCommand = new Command("clients")
  .description("the OpenID Provider's clients: add, list, show, rotate-secret, remove, update (docs/oidc.md)")
  .addCommand(add)
  .addCommand(list)
  .addCommand(show)
  .addCommand(rotateSecret)
  .addCommand(remove)
  .addCommand(update);

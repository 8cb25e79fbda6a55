import { Command } from "commander";
import * as z from "zod";
import type { AuthContext } from "../../context.ts";
import { listOrganizationPage } from "../../services/directory.ts";
import { describeOrganization, type OrganizationOverview } from "../../services/user-overview.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, PageFlags, parseFlags, printJSON, UserError, withContext, withPageOptions } from "../shared.ts";

// Operators' view of organizations; changes go through the API (and its permission rules), not here.

export async function showOrganization(ctx: AuthContext, idOrSlug: string): Promise<OrganizationOverview> {
  const found = await describeOrganization(ctx, idOrSlug);
  if (!found) throw new UserError(`no organization with id or slug ${idOrSlug}`);
  return found;
}

const ListFlags = PageFlags.extend({ search: z.string().optional() });

const orgsList = withPageOptions(createCommand("list", "list organizations, newest first"))
  .option("-s, --search <text>", "match name or slug")
  .option("--json", "print only JSON")
  .action(async (raw) => {
    const flags = parseFlags(ListFlags, raw);
    await withContext(flags, async (ctx) => {
      const { items: organizations, total } = await listOrganizationPage(ctx, flags);
      if (flags.json) return printJSON(organizations);
      writeLines(
        formatTable(organizations, [
          { header: "id", value: (o) => o.id },
          { header: "slug", value: (o) => o.slug },
          { header: "name", value: (o) => o.name },
          { header: "members", value: (o) => o.memberCount },
          { header: "created", value: (o) => o.createdAt },
        ]),
        `${organizations.length} of ${total} organization(s)`,
      );
    });
  });

const ShowFlags = z.object({ json: z.boolean().optional(), config: z.string().optional() });

const orgsShow = createCommand("show", "show an organization with its members, invitations and teams")
  .argument("<id-or-slug>", "the organization's id or slug")
  .option("--json", "print only JSON")
  .action(async (idOrSlug: string, raw) => {
    const flags = parseFlags(ShowFlags, raw);
    await withContext(flags, async (ctx) => {
      const shown = await showOrganization(ctx, idOrSlug);
      if (flags.json) return printJSON(shown);
      const { organization, members, invitations, teams } = shown;
      writeLines(
        `${organization.name} (${organization.slug})  ${organization.id}`,
        "",
        `members (${members.length})`,
        formatTable(members, [
          { header: "email", value: (m) => m.email },
          { header: "name", value: (m) => m.name },
          { header: "role", value: (m) => m.role },
          { header: "since", value: (m) => m.createdAt },
        ]),
        "",
        `invitations (${invitations.length})`,
        formatTable(invitations, [
          { header: "email", value: (i) => i.email },
          { header: "role", value: (i) => i.role },
          { header: "status", value: (i) => i.status },
          { header: "expires", value: (i) => i.expiresAt },
        ]),
        "",
        `teams (${teams.length})`,
        formatTable(teams, [
          { header: "name", value: (t) => t.name },
          { header: "members", value: (t) => t.memberCount },
        ]),
      );
    });
  });

export const orgsCommand = new Command("orgs")
  .description("list and inspect organizations")
  .addCommand(orgsList)
  .addCommand(orgsShow);

import * as z from "zod";
import { searchUsers, USER_SORT_KEYS } from "../../services/user-search.ts";
import { formatTable, writeLines } from "../format.ts";
import { createCommand, PageFlags, parseFlags, printJSON, withContext, withPageOptions } from "../shared.ts";

// `authd users list`: the web console's users list at the command line, with the same search, filters,
// sorts and cursors (src/services/user-search.ts).

const ListFlags = PageFlags.extend({
  search: z.string().optional(),
  contains: z.boolean().optional(),
  banned: z.boolean().optional(),
  verified: z.boolean().optional(),
  twoFactor: z.boolean().optional(),
  passkey: z.boolean().optional(),
  provider: z.string().min(1).optional(),
  org: z.string().min(1).optional(),
  role: z.string().min(1).optional(),
  sort: z.enum(USER_SORT_KEYS).optional(),
  order: z.enum(["asc", "desc"]).optional(),
  cursor: z.string().min(1).optional(),
});

export const usersListCommand = withPageOptions(
  createCommand("list", "list users, newest first, searched and filtered as in the web console"),
)
  .option("-s, --search <text>", "the id, or the start of the email, username or name (case ignored)")
  .option("--contains", "match the search text anywhere in them (reads every user: slow for millions)")
  .option("--banned", "only users whose ban is in force")
  .option("--no-banned", "only users not banned")
  .option("--verified", "only users with a verified email")
  .option("--no-verified", "only users whose email is unverified")
  .option("--two-factor", "only users with a second factor")
  .option("--no-two-factor", "only users without one")
  .option("--passkey", "only users with a passkey")
  .option("--no-passkey", "only users without one")
  .option("--provider <id>", "only users with an account of this provider (credential: a password)")
  .option("--org <id-or-slug>", "only members of this organization")
  .option("--role <role>", "only users holding this role")
  .option("--sort <key>", `order by ${USER_SORT_KEYS.join(", ")}`)
  .option("--order <asc|desc>", "direction (default: newest first, or A to Z)")
  .option("--cursor <cursor>", "the page a previous listing named as next or previous")
  .option("--json", "print only JSON (an array of user objects)")
  .action(async (raw) => {
    const flags = parseFlags(ListFlags, raw);
    await withContext(flags, async (ctx) => {
      const page = await searchUsers(ctx, {
        search: flags.search,
        match: flags.contains ? "contains" : "prefix",
        banned: flags.banned,
        emailVerified: flags.verified,
        twoFactor: flags.twoFactor,
        passkey: flags.passkey,
        provider: flags.provider,
        organization: flags.org,
        role: flags.role,
        sort: flags.sort,
        direction: flags.order,
        cursor: flags.cursor,
        limit: flags.limit,
        offset: flags.offset,
      });
      if (flags.json) return printJSON(page.items);
      const users = page.items;
      writeLines(
        formatTable(users, [
          { header: "id", value: (u) => u.id },
          { header: "email", value: (u) => u.email },
          { header: "name", value: (u) => u.name },
          { header: "verified", value: (u) => u.emailVerified },
          { header: "role", value: (u) => u.role },
          { header: "banned", value: (u) => u.banned },
          { header: "created", value: (u) => u.createdAt },
        ]),
        `${users.length} of ${page.total}${page.totalCapped ? "+" : ""} user(s)`,
        ...(page.next ? [`next page: --cursor ${page.next}`] : []),
        ...(page.previous ? [`previous page: --cursor ${page.previous}`] : []),
      );
    });
  });

import type { Kysely } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "../../src/db/driver.ts";
import { fanOutEvents } from "../../src/services/webhooks/delivery.ts";
import { listWebhookEndpoints } from "../../src/services/webhooks/webhooks.ts";
import { createTestContext, describeEachDialect, signUp } from "../helpers/context.ts";
import { migratorFor, scratchDatabase } from "../helpers/migrations.ts";

// Upgrading a database whose webhook endpoints were registered before the console's migration: each gets
// the disabled flag off (it goes on receiving), no previous secret, and an empty delivery log.

const BEFORE = "20261127200000_create_imported_user_table";

describeEachDialect("the webhook delivery log migration on existing endpoints", (dialect) => {
  it("leaves every existing endpoint enabled and receiving", async () => {
    const scratch = await scratchDatabase(dialect);
    const handle = openDatabase(scratch.url);
    try {
      const { error } = await migratorFor(handle.db as Kysely<unknown>, handle.schema).migrateTo(BEFORE);
      if (error) throw error;
      const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await db
        .insertInto("webhookEndpoint")
        .values({
          id: "wh_before",
          url: "https://192.0.32.10/hooks",
          events: '["sign_up"]',
          secret: `whsec_${"C".repeat(43)}=`,
          origin: "cli",
          createdAt: 1,
        })
        .execute();
    } finally {
      await handle.close();
    }

    const t = await createTestContext({ dialect, databaseURL: scratch.url });
    try {
      const [endpoint] = await listWebhookEndpoints(t.ctx);
      expect(endpoint).toMatchObject({
        id: "wh_before",
        disabled: false,
        previousSecretExpiresAt: null,
        lastAttempt: null,
      });
      await signUp(t);
      while ((await fanOutEvents(t.ctx)) > 0) {}
      const deliveries = await t.ctx.db.selectFrom("webhookDelivery").selectAll().execute();
      expect(deliveries.map((row) => row.endpointId)).toEqual(["wh_before"]);
    } finally {
      await t.close();
      await scratch.drop();
    }
  });
});

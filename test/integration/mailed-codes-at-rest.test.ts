import { expect, it } from "vitest";
import { createCode, redeemCode as redeemEmailCode } from "../../src/services/email-otp/codes.ts";
import { redeemCode, sendCode } from "../../src/services/two-factor/mailed-code.ts";
import { describeEachDialect, signUp, type TestContext } from "../helpers/context.ts";
import { CODE_LINE, useMailContext } from "../helpers/mail-links.ts";
import type { Mailbox } from "../helpers/mailbox.ts";

// Issue 27: email one-time codes and mailed two-factor codes are kept by one implementation
// (src/services/one-time-codes.ts). At rest each code is an HMAC bound to the record it belongs to, so a
// stored value copied onto another record (another challenge, another address) proves nothing there.

describeEachDialect("mailed codes at rest", (dialect) => {
  let t: TestContext;
  let mailbox: Mailbox;
  useMailContext({ dialect }, (ready) => ({ t, mailbox } = ready));

  async function copyRecord(from: string, to: string): Promise<void> {
    const row = await t.ctx.db
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "=", from)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto("verification")
      .values({ ...row, id: `${row.id}-copy`, identifier: to })
      .execute();
  }

  it("attacker: a two-factor code's stored value copied to another challenge does not verify there", async () => {
    // Given a code mailed for one challenge, and its record copied under a second challenge's key
    const { user } = await signUp(t);
    await sendCode(t.ctx, "challenge-a", user);
    await t.ctx.settle();
    const code = (mailbox.to(user.email).at(-1)?.plain.match(CODE_LINE) ?? [])[1];
    expect(code).toMatch(/^\d{6}$/);
    await copyRecord("2fa-otp-challenge-a", "2fa-otp-challenge-b");

    // When the code is tried against the second challenge, Then it is a wrong code there
    await expect(redeemCode(t.ctx, "challenge-b", code)).rejects.toMatchObject({ key: "INVALID_CODE" });
    // And it still works, once, where it was sent
    await expect(redeemCode(t.ctx, "challenge-a", code)).resolves.toBeUndefined();
    await expect(redeemCode(t.ctx, "challenge-a", code)).rejects.toMatchObject({ key: "OTP_HAS_EXPIRED" });
  });

  it("attacker: an email code's stored value copied to another address does not verify there", async () => {
    const code = await createCode(t.ctx, "owner@example.com", "sign-in");
    await copyRecord("email-otp:sign-in:owner@example.com", "email-otp:sign-in:victim@example.com");
    await expect(redeemEmailCode(t.ctx, "victim@example.com", "sign-in", code)).rejects.toMatchObject({
      key: "INVALID_OTP",
    });
    await expect(redeemEmailCode(t.ctx, "owner@example.com", "sign-in", code)).resolves.toBeUndefined();
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as client from "../../src/client/wire.ts";
import type * as apiKeys from "../../src/wire/api-key.ts";
import type { IsoDate } from "../../src/wire/common.ts";
import type * as organizations from "../../src/wire/organization.ts";
import type * as sessions from "../../src/wire/session.ts";
import { renderClientWireTypes } from "../../src/wire/typescript.ts";
import type * as users from "../../src/wire/user.ts";

// The client's entity types are written from the server's wire schemas: the file is the one the schemas
// produce now, and (checked by tsc) each type is the schema's inferred type with its dates as Dates.

type Revived<T> = T extends IsoDate
  ? Date
  : T extends readonly (infer Item)[]
    ? Revived<Item>[]
    : T extends object
      ? { [K in keyof T]: Revived<T[K]> }
      : T;

describe("the client's wire types", () => {
  it("are the ones the wire schemas write (run `node_modules/.bin/bun scripts/client-wire-types.ts` when this fails)", () => {
    expect(readFileSync(new URL("../../src/client/wire.ts", import.meta.url), "utf8")).toBe(renderClientWireTypes());
  });

  it("equal the server's inferred wire types with Date for every date", () => {
    expectTypeOf<client.User>().toEqualTypeOf<Revived<users.User>>();
    expectTypeOf<client.UsernameSignInUser>().toEqualTypeOf<Revived<users.UsernameSignInUser>>();
    expectTypeOf<client.SessionWithUser>().toEqualTypeOf<Revived<sessions.SessionWithUser>>();
    expectTypeOf<client.FullOrganization>().toEqualTypeOf<Revived<organizations.FullOrganization>>();
    expectTypeOf<client.InvitationDetails>().toEqualTypeOf<Revived<organizations.InvitationDetails>>();
    expectTypeOf<client.CreatedApiKey>().toEqualTypeOf<Revived<apiKeys.CreatedApiKey>>();
    expectTypeOf<client.ApiKeyVerification>().toEqualTypeOf<Revived<apiKeys.ApiKeyVerification>>();
  });
});

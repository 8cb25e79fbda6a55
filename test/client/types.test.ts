import { describe, expectTypeOf, it } from "vitest";
import type {
  AuthClientError,
  CreatedApiKey,
  Invitation,
  Member,
  SessionWithUser,
  User,
} from "../../src/client/index.ts";
import { createAuthClient } from "../../src/client/index.ts";
import { createAuthClient as createReactClient } from "../../src/client/react.ts";

// The client's types are part of what it ships: these checks fail the typecheck (tsc) when they drift.
// Nothing here is sent: the calls sit in functions that are never invoked.

const client = createAuthClient({ baseURL: "http://127.0.0.1:9" });
const reactClient = createReactClient({ baseURL: "http://127.0.0.1:9" });

describe("client types", () => {
  it("types inputs and outputs from the route map", () => {
    expectTypeOf(client.signUp.email).parameter(0).toHaveProperty("email").toEqualTypeOf<string>();
    expectTypeOf(client.signIn.email).returns.resolves.toEqualTypeOf<
      | { data: { token: string | null; user: User; redirect: boolean; url?: string }; error: null }
      | { data: null; error: AuthClientError }
    >();
    expectTypeOf<Awaited<ReturnType<typeof client.getSession>>["data"]>().toEqualTypeOf<SessionWithUser | null>();
    expectTypeOf<
      NonNullable<Awaited<ReturnType<typeof client.apiKey.create>>["data"]>
    >().toEqualTypeOf<CreatedApiKey>();
    expectTypeOf<
      NonNullable<Awaited<ReturnType<typeof client.organization.acceptInvitation>>["data"]>
    >().toEqualTypeOf<{ invitation: Invitation; member: Member }>();
  });

  it("requires what the server requires and takes GET parameters under query", () => {
    const unused = () => {
      // @ts-expect-error password is required
      void client.signIn.email({ email: "a@example.com" });
      // @ts-expect-error get-invitation needs its id in the query
      void client.organization.getInvitation({});
      void client.organization.getInvitation({ query: { id: "inv" } });
      void client.signOut();
      void client.deleteUser({ password: "pw" });
      void client.deleteUser.callback({ query: { token: "t" } });
      void client.apiKey.list({ fetchOptions: { headers: { "x-api-key": "k" } } });
    };
    expectTypeOf(unused).toBeFunction();
  });

  it("gives the React client a useSession hook and the plain client a store", () => {
    expectTypeOf(reactClient.useSession).returns.toHaveProperty("isPending").toEqualTypeOf<boolean>();
    expectTypeOf(client.useSession.subscribe).toBeFunction();
    expectTypeOf(reactClient.signUp.email).toEqualTypeOf(client.signUp.email);
  });
});

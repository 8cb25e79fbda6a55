import type { Agent } from "./agent.ts";
import { signUp, type TestContext } from "./context.ts";

// The web console in tests: an admin (or a narrower role) signed in through the test agent.

export interface ConsoleUser {
  agent: Agent;
  id: string;
  email: string;
}

/** A new user holding `role` (admin unless told otherwise), signed in. */
export async function consoleUser(t: TestContext, role = "admin", email?: string): Promise<ConsoleUser> {
  const signedUp = await signUp(t, email ? { email } : {});
  await t.server().post("/admin/set-role", { userId: signedUp.user.id, role });
  return { agent: signedUp.agent, id: signedUp.user.id, email: signedUp.user.email };
}

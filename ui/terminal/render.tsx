import { render } from "ink";
import { type AuthContext, createAdminData } from "../data.ts";
import { AdminApp } from "./screens/AdminApp.tsx";

// The one place the CLI meets Ink: commands call these functions and never import Ink themselves.

/** Run the terminal admin UI until the operator quits (esc on a list, or ctrl-c). */
export async function renderAdmin(ctx: AuthContext): Promise<void> {
  const app = render(<AdminApp data={createAdminData(ctx)} />, { exitOnCtrlC: true });
  await app.waitUntilExit();
}

import type { ConsolePageState } from "./bundles.ts";
import { ConsoleUsersScreen } from "./console/users.tsx";
import { ConsoleUsersConfirmScreen } from "./console/users-confirm.tsx";

// The web console's screens (docs/console.md): a bundle of their own (client/console.tsx), so neither the
// sign-in page's script nor the account page's carries them. Each area adds its cases here.

export function ConsolePage({ state }: { state: ConsolePageState }) {
  switch (state.page) {
    case "console-users":
      return <ConsoleUsersScreen state={state} />;
    case "console-users-confirm":
      return <ConsoleUsersConfirmScreen state={state} />;
  }
}

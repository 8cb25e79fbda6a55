import type { ConsolePageState } from "./bundles.ts";
import { ConsoleSettingsScreen } from "./console/settings.tsx";
import { ConsoleUsersScreen } from "./console/users.tsx";
import { ConsoleWebhookScreen } from "./console/webhook.tsx";
import { ConsoleWebhooksScreen } from "./console/webhooks.tsx";

// The web console's screens (docs/console.md): a bundle of their own (client/console.tsx), so neither the
// sign-in page's script nor the account page's carries them. Each area adds its cases here.

export function ConsolePage({ state }: { state: ConsolePageState }) {
  switch (state.page) {
    case "console-users":
      return <ConsoleUsersScreen state={state} />;
    case "console-webhooks":
      return <ConsoleWebhooksScreen state={state} />;
    case "console-webhook":
      return <ConsoleWebhookScreen state={state} />;
    case "console-settings":
      return <ConsoleSettingsScreen state={state} />;
  }
}

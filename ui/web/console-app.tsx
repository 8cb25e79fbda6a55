import type { ConsolePageState } from "./bundles.ts";
import { ConsoleApiKeysScreen } from "./console/api-keys.tsx";
import { ConsoleAuditScreen } from "./console/audit.tsx";
import { ConsoleAuditEventScreen } from "./console/audit-event.tsx";
import { ConsoleClientScreen } from "./console/client.tsx";
import { ConsoleClientsScreen } from "./console/clients.tsx";
import { ConsoleMailScreen } from "./console/mail.tsx";
import { ConsoleOrganizationScreen } from "./console/organization.tsx";
import { ConsoleOrganizationsScreen } from "./console/organizations.tsx";
import { ConsoleOverviewScreen } from "./console/overview.tsx";
import { ConsoleSettingsScreen } from "./console/settings.tsx";
import { ConsoleUserScreen } from "./console/user.tsx";
import { ConsoleUsersScreen } from "./console/users.tsx";
import { ConsoleUsersConfirmScreen } from "./console/users-confirm.tsx";
import { ConsoleWebhookScreen } from "./console/webhook.tsx";
import { ConsoleWebhooksScreen } from "./console/webhooks.tsx";

// The web console's screens (docs/console.md): a bundle of their own (client/console.tsx), so neither the
// sign-in page's script nor the account page's carries them. Each area adds its cases here.

export function ConsolePage({ state }: { state: ConsolePageState }) {
  switch (state.page) {
    case "console-users":
      return <ConsoleUsersScreen state={state} />;
    case "console-overview":
      return <ConsoleOverviewScreen state={state} />;
    case "console-audit":
      return <ConsoleAuditScreen state={state} />;
    case "console-audit-event":
      return <ConsoleAuditEventScreen state={state} />;
    case "console-user":
      return <ConsoleUserScreen state={state} />;
    case "console-organizations":
      return <ConsoleOrganizationsScreen state={state} />;
    case "console-organization":
      return <ConsoleOrganizationScreen state={state} />;
    case "console-api-keys":
      return <ConsoleApiKeysScreen state={state} />;
    case "console-clients":
      return <ConsoleClientsScreen state={state} />;
    case "console-client":
      return <ConsoleClientScreen state={state} />;
    case "console-webhooks":
      return <ConsoleWebhooksScreen state={state} />;
    case "console-webhook":
      return <ConsoleWebhookScreen state={state} />;
    case "console-settings":
      return <ConsoleSettingsScreen state={state} />;
    case "console-users-confirm":
      return <ConsoleUsersConfirmScreen state={state} />;
    case "console-mail":
      return <ConsoleMailScreen state={state} />;
  }
}

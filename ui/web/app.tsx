import { AccountPage } from "./account-app.tsx";
import { isAccountPage, isConsolePage } from "./bundles.ts";
import { ImpersonationBanner } from "./components/impersonation-banner.tsx";
import { PageProvider } from "./components/page-context.tsx";
import { ConsolePage } from "./console-app.tsx";
import { FrontDoorPage } from "./front-door.tsx";
import type { PageState } from "./state.ts";

// Every page, as the server renders it: the browser hydrates the same tree from the bundle the page names
// (client/main.tsx for the front door, client/account.tsx for the account page, client/console.tsx for the
// console; bundles.ts).

export function PageApp({ state }: { state: PageState }) {
  return (
    <PageProvider state={state}>
      <ImpersonationBanner />
      {isConsolePage(state) ? (
        <ConsolePage state={state} />
      ) : isAccountPage(state) ? (
        <AccountPage state={state} />
      ) : (
        <FrontDoorPage state={state} />
      )}
    </PageProvider>
  );
}

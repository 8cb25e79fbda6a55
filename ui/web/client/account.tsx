import { AccountPage } from "../account-app.tsx";
import { isAccountPage } from "../bundles.ts";
import { hydratePage } from "./hydrate.tsx";

// The account page's bundle: its sections, re-authentication and the development outbox.

hydratePage((state) => (isAccountPage(state) ? <AccountPage state={state} /> : null));

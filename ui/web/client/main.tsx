import { isAccountPage, isConsolePage } from "../bundles.ts";
import { FrontDoorPage } from "../front-door.tsx";
import { hydratePage } from "./hydrate.tsx";

// The front door's bundle: sign-in, sign-up, recovery, the second factor, mailed links, invitations.

hydratePage((state) => (isAccountPage(state) || isConsolePage(state) ? null : <FrontDoorPage state={state} />));

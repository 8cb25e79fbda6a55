import { isConsolePage } from "../bundles.ts";
import { ConsolePage } from "../console-app.tsx";
import { hydratePage } from "./hydrate.tsx";

// The console's bundle: its screens, the console catalogue, and nothing of the front door or the account page.

hydratePage((state) => (isConsolePage(state) ? <ConsolePage state={state} /> : null));

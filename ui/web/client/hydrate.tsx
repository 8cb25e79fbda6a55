import type { ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { PageProvider } from "../components/page-context.tsx";
import type { PageState } from "../state.ts";

// What both bundles do on load: read the state the server rendered the page from, and take over the same
// markup (the tree app.tsx rendered: the provider around the page).

export function hydratePage(page: (state: PageState) => ReactNode): void {
  const root = document.getElementById("authd-root");
  const data = document.getElementById("authd-state");
  if (!root || !data?.textContent) return;
  const state = JSON.parse(data.textContent) as PageState;
  hydrateRoot(root, <PageProvider state={state}>{page(state)}</PageProvider>);
  // A mark for stylesheets and tests: the page is live (forms go through the API without a reload).
  document.documentElement.dataset.hydrated = "true";
}

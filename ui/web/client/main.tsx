import { hydrateRoot } from "react-dom/client";
import { PageApp } from "../app.tsx";
import type { PageState } from "../state.ts";

// The browser bundle: read the state the server rendered the page from, and take over the same markup.

const root = document.getElementById("authd-root");
const data = document.getElementById("authd-state");
if (root && data?.textContent) {
  const state = JSON.parse(data.textContent) as PageState;
  hydrateRoot(root, <PageApp state={state} />);
  // A mark for stylesheets and tests: the page is live (forms go through the API without a reload).
  document.documentElement.dataset.hydrated = "true";
}

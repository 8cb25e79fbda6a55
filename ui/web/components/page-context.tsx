import { createContext, useContext } from "react";
import { type MessageKey, type Translate, translator } from "../../shared/messages/index.ts";
import type { PageState } from "../state.ts";

// What every part of a page reads: its state (from the server) and the messages in its language.

interface PageContextValue {
  state: PageState;
  t: Translate;
}

const PageContext = createContext<PageContextValue | null>(null);

export function PageProvider({ state, children }: { state: PageState; children: React.ReactNode }) {
  return <PageContext.Provider value={{ state, t: translator(state.locale) }}>{children}</PageContext.Provider>;
}

export function usePage(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error("usePage outside PageProvider");
  return value;
}

/** A page's own URL under the pages' base path, with the return address carried along. */
export function usePageHref(): (path: string, params?: Record<string, string>) => string {
  const { state } = usePage();
  return (path, params = {}) => {
    const query = new URLSearchParams(params);
    if (state.redirect) query.set("redirect", state.redirect);
    const search = query.toString();
    return `${state.paths.pages}${path}${search ? `?${search}` : ""}`;
  };
}

export type { MessageKey };

import { useMemo } from "react";
import { type ConsoleTranslate, consoleTranslator } from "../../shared/messages/console.ts";
import type { ConsolePageState } from "../bundles.ts";
import { usePage } from "../components/page-context.tsx";
import type { ConsoleFrame } from "../console-state.ts";

// What every part of a console screen reads: its state, the frame (admin, permissions) and the messages of
// the pages and the console in the page's language.

export function useConsole(): { state: ConsolePageState; frame: ConsoleFrame; t: ConsoleTranslate } {
  const { state } = usePage();
  const t = useMemo(() => consoleTranslator(state.locale), [state.locale]);
  const consoleState = state as ConsolePageState;
  return { state: consoleState, frame: consoleState.console, t };
}

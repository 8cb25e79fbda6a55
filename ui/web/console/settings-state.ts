import type { DependencyHealth, SettingEntry } from "../../../src/wire/settings.ts";
import type { ConsoleFrame } from "./frame-state.ts";

// The settings screen (/console/settings): the effective configuration, read-only and every secret masked,
// and the health of each dependency, checked as the screen is drawn.

export type ConsoleSetting = SettingEntry;
export type ConsoleDependency = DependencyHealth;

export interface ConsoleSettingsState {
  page: "console-settings";
  console: ConsoleFrame;
  settings: ConsoleSetting[];
  health: ConsoleDependency[];
  query: { search: string };
}

import { consoleScreen } from "./frame.ts";

// The settings screen (/console/settings): the effective configuration, read-only with every secret masked
// (AdminData.readSettings, the masking of `authd config check`), filtered by key, and the health of each
// dependency checked as it is drawn. Nothing here changes a setting: the config file and the environment do.

export const settingsScreen = consoleScreen("settings", { settings: ["read"] }, async (c, _ctx, access) => {
  const search = (c.req.query("search") ?? "").trim().slice(0, 256);
  const needle = search.toLowerCase();
  const settings = access.data
    .readSettings()
    .filter(
      (entry) => !needle || entry.key.toLowerCase().includes(needle) || entry.env?.toLowerCase().includes(needle),
    );
  return { page: "console-settings", settings, health: await access.data.checkDependencies(), query: { search } };
});

export const SETTINGS_HANDLERS = {
  showSettings: settingsScreen.show,
};

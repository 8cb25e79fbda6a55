// The console's overview (its home): the figures, the activity charts and their table.

export const consoleOverviewEn = {
  "console.overview.asOf": "Figures as of {time} UTC.",
  "console.overview.users": "Users",
  "console.overview.sessions": "Active sessions",
  "console.overview.webhooksFailed": "Failed webhook deliveries",
  "console.overview.webhooksNote": "At {endpoints} endpoints; {pending} waiting to be sent",
  "console.overview.activity": "Sign-ups and sign-ins",
  "console.overview.range": "Time range",
  "console.overview.range.24h": "Last 24 hours",
  "console.overview.range.30d": "Last 30 days",
  "console.overview.utc": "Hours and days are in UTC.",
  "console.overview.retention": "The audit log keeps {days} days, so older days show nothing.",
  "console.overview.table": "The figures as a table",
  "console.overview.caption.24h": "Sign-ups, sign-ins and failed sign-ins per hour over the last 24 hours (UTC)",
  "console.overview.caption.30d": "Sign-ups, sign-ins and failed sign-ins per day over the last 30 days (UTC)",
  "console.overview.column.24h": "Hour (UTC)",
  "console.overview.column.30d": "Day (UTC)",
  "console.overview.series.signUps": "Sign-ups",
  "console.overview.series.signIns": "Sign-ins",
  "console.overview.series.failedSignIns": "Failed sign-ins",
  "console.overview.chart.24h":
    "{series} per hour over the last 24 hours: {total} in all, at most {peak} in one hour (at {when} UTC).",
  "console.overview.chart.30d":
    "{series} per day over the last 30 days: {total} in all, at most {peak} in one day ({when}).",
  "console.overview.chart.none.24h": "{series} per hour over the last 24 hours: none.",
  "console.overview.chart.none.30d": "{series} per day over the last 30 days: none.",
} as const;

export const consoleOverviewDe: Record<keyof typeof consoleOverviewEn, string> = {
  "console.overview.asOf": "Stand: {time} UTC.",
  "console.overview.users": "Benutzer",
  "console.overview.sessions": "Aktive Sitzungen",
  "console.overview.webhooksFailed": "Fehlgeschlagene Webhook-Zustellungen",
  "console.overview.webhooksNote": "An {endpoints} Endpunkte; {pending} warten auf den Versand",
  "console.overview.activity": "Registrierungen und Anmeldungen",
  "console.overview.range": "Zeitraum",
  "console.overview.range.24h": "Letzte 24 Stunden",
  "console.overview.range.30d": "Letzte 30 Tage",
  "console.overview.utc": "Stunden und Tage in UTC.",
  "console.overview.retention": "Das Audit-Protokoll bewahrt {days} Tage auf; ältere Tage bleiben leer.",
  "console.overview.table": "Die Zahlen als Tabelle",
  "console.overview.caption.24h":
    "Registrierungen, Anmeldungen und fehlgeschlagene Anmeldungen je Stunde in den letzten 24 Stunden (UTC)",
  "console.overview.caption.30d":
    "Registrierungen, Anmeldungen und fehlgeschlagene Anmeldungen je Tag in den letzten 30 Tagen (UTC)",
  "console.overview.column.24h": "Stunde (UTC)",
  "console.overview.column.30d": "Tag (UTC)",
  "console.overview.series.signUps": "Registrierungen",
  "console.overview.series.signIns": "Anmeldungen",
  "console.overview.series.failedSignIns": "Fehlgeschlagene Anmeldungen",
  "console.overview.chart.24h":
    "{series} je Stunde in den letzten 24 Stunden: {total} insgesamt, höchstens {peak} in einer Stunde (um {when} UTC).",
  "console.overview.chart.30d":
    "{series} je Tag in den letzten 30 Tagen: {total} insgesamt, höchstens {peak} an einem Tag ({when}).",
  "console.overview.chart.none.24h": "{series} je Stunde in den letzten 24 Stunden: keine.",
  "console.overview.chart.none.30d": "{series} je Tag in den letzten 30 Tagen: keine.",
};

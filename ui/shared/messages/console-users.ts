// The console's users screen.

export const consoleUsersEn = {
  "console.users.what": "users",
  "console.users.searchHint": "Email, name, username or id",
  "console.users.column.user": "User",
  "console.users.column.role": "Role",
  "console.users.column.status": "Status",
  "console.users.column.created": "Created",
  "console.users.status.banned": "Banned",
  "console.users.status.unverified": "Email not verified",
  "console.users.status.active": "Active",
} as const;

export const consoleUsersDe: Record<keyof typeof consoleUsersEn, string> = {
  "console.users.what": "Benutzer",
  "console.users.searchHint": "E-Mail, Name, Benutzername oder ID",
  "console.users.column.user": "Benutzer",
  "console.users.column.role": "Rolle",
  "console.users.column.status": "Status",
  "console.users.column.created": "Erstellt",
  "console.users.status.banned": "Gesperrt",
  "console.users.status.unverified": "E-Mail nicht bestätigt",
  "console.users.status.active": "Aktiv",
};

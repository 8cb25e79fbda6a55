// The banner every page shows while an administrator impersonates a user (issue 32): in the pages'
// catalogue, since the account page's bundle draws it as well as the console's; with the refusals the
// console's user screen and the stop button can meet (drawn through the pages' error keys).

export const impersonationEn = {
  "impersonation.label": "Impersonation",
  "impersonation.banner": "You are acting as {name} ({email}) until {time} UTC. What you do here is recorded as yours.",
  "impersonation.stop": "Stop impersonating",
  "impersonation.stopElsewhere": "End it from the console or with /admin/stop-impersonating.",
  "error.YOU_ARE_NOT_IMPERSONATING_ANYONE": "This browser is not impersonating anyone.",
  "error.FAILED_TO_FIND_ADMIN_SESSION":
    "The administrator's own session could not be found (it ended or belongs to someone else). Sign out and sign in again.",
  "error.YOU_CANNOT_IMPERSONATE_ADMINS": "Users who hold an admin permission cannot be impersonated.",
  "error.NO_VALUES_TO_UPDATE": "Nothing to change: fill in at least one field.",
  "error.RESET_PASSWORD_ISNT_ENABLED": "Passwords are switched off, so there is no reset link to send.",
} as const;

export const impersonationDe: Record<keyof typeof impersonationEn, string> = {
  "impersonation.label": "Identitätswechsel",
  "impersonation.banner":
    "Sie handeln als {name} ({email}) bis {time} UTC. Was Sie hier tun, wird als Ihr Handeln protokolliert.",
  "impersonation.stop": "Identitätswechsel beenden",
  "impersonation.stopElsewhere": "Beenden Sie ihn in der Konsole oder mit /admin/stop-impersonating.",
  "error.YOU_ARE_NOT_IMPERSONATING_ANYONE": "Dieser Browser handelt gerade nicht als ein anderer Benutzer.",
  "error.FAILED_TO_FIND_ADMIN_SESSION":
    "Die eigene Sitzung des Administrators wurde nicht gefunden (sie ist beendet oder gehört jemand anderem). Melden Sie sich ab und wieder an.",
  "error.YOU_CANNOT_IMPERSONATE_ADMINS": "Benutzer mit einer Administratorberechtigung können nicht übernommen werden.",
  "error.NO_VALUES_TO_UPDATE": "Nichts zu ändern: Füllen Sie mindestens ein Feld aus.",
  "error.RESET_PASSWORD_ISNT_ENABLED": "Passwörter sind abgeschaltet, daher gibt es keinen Link zum Zurücksetzen.",
};

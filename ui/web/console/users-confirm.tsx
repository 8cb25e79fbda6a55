import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import { HiddenFields } from "../components/form.tsx";
import { consoleHref } from "../console-state.ts";
import { useConsole } from "./context.tsx";
import { ConsoleShell } from "./shell.tsx";
import { BAN_LENGTHS, type ConsoleUsersConfirmState } from "./users-state.ts";

// The confirmation of a bulk action on the users list: who is concerned (by email and name, as text), what
// will happen, and for a ban its reason and length; the form posts the users chosen with the anti-forgery
// token. Cancelling is a link back to the same page of the same search.

function BanFields() {
  const { t } = useConsole();
  const reason = useId();
  const length = useId();
  return (
    <>
      <div className="authd-field">
        <label htmlFor={reason} className="authd-label">
          {t("console.users.reason")}
        </label>
        <input id={reason} name="reason" className="authd-input" maxLength={256} aria-describedby={`${reason}-hint`} />
        <p id={`${reason}-hint`} className="authd-hint">
          {t("console.users.reasonHint")}
        </p>
      </div>
      <div className="authd-field">
        <label htmlFor={length} className="authd-label">
          {t("console.users.banLength")}
        </label>
        <select id={length} name="expiresIn" className="authd-input" defaultValue="">
          {BAN_LENGTHS.map((seconds) => (
            <option key={seconds} value={seconds}>
              {t(`console.users.banLength.${seconds}` as AnyMessageKey)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

export function ConsoleUsersConfirmScreen({ state }: { state: ConsoleUsersConfirmState }) {
  const { t } = useConsole();
  const { action, users, missing, back } = state;
  const backHref = consoleHref("/users", Object.fromEntries(new URLSearchParams(back)));
  return (
    <ConsoleShell screen="users" title={t(`console.users.confirm.${action}` as AnyMessageKey)}>
      <p>{t(`console.users.confirm.${action}.text` as AnyMessageKey)}</p>
      {missing > 0 ? <p className="authd-hint">{t("console.users.confirm.missing", { count: missing })}</p> : null}
      {users.length === 0 ? (
        <p className="authd-problem-text">
          {t(missing > 0 ? "console.users.confirm.none" : "console.users.confirm.nothing")}
        </p>
      ) : (
        <form method="post" action={consoleHref(`/users-bulk/${action}`)} className="authd-form">
          <HiddenFields />
          <input type="hidden" name="back" value={back} />
          <ul className="authd-console-users-chosen">
            {users.map((user, index) => (
              <li key={user.id}>
                <input type="hidden" name={`user-${index}`} value={user.id} />
                <span>{user.email}</span>
                {user.name ? <span className="authd-console-secondary">{user.name}</span> : null}
              </li>
            ))}
          </ul>
          {action === "ban" ? <BanFields /> : null}
          <div className="authd-console-action">
            <button type="submit" className={action === "unban" ? "authd-button" : "authd-button authd-button-danger"}>
              {t(`console.users.confirm.${action}.button` as AnyMessageKey, { count: users.length })}
            </button>
          </div>
        </form>
      )}
      <p>
        <a href={backHref}>{t("console.users.back")}</a>
      </p>
    </ConsoleShell>
  );
}

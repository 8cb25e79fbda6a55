import { useId } from "react";
import type { AnyMessageKey } from "../../shared/messages/console.ts";
import type { ConsoleClientFormValues } from "../console-state.ts";
import { useConsole } from "./context.tsx";

// The fields of a client's registration and change forms: labelled inputs with their hints, the form's
// problem tied to each (aria-describedby), filled with what was sent when the form is drawn again.

function TextField(props: {
  name: keyof ConsoleClientFormValues;
  label: AnyMessageKey;
  hint?: AnyMessageKey;
  value: string;
  required?: boolean;
  invalid: boolean;
}) {
  const { t } = useConsole();
  const id = useId();
  return (
    <div className="authd-field">
      <label htmlFor={id} className="authd-label">
        {t(props.label)}
      </label>
      <input
        id={id}
        name={props.name}
        type="text"
        className="authd-input"
        defaultValue={props.value}
        required={props.required}
        maxLength={props.name === "name" ? 200 : 4000}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint ? (
        <p id={`${id}-hint`} className="authd-hint">
          {t(props.hint)}
        </p>
      ) : null}
    </div>
  );
}

/** The fields both forms have; `registering` adds the type and the ID token's algorithm. */
export function ClientFields({
  values,
  invalid,
  registering,
}: {
  values: ConsoleClientFormValues;
  invalid: boolean;
  registering?: boolean;
}) {
  const { t } = useConsole();
  const consentId = useId();
  const typeId = useId();
  const algId = useId();
  return (
    <>
      <TextField
        name="name"
        label="console.clients.field.name"
        hint="console.clients.field.nameHint"
        value={values.name}
        required
        invalid={invalid}
      />
      <TextField
        name="redirectURIs"
        label="console.clients.field.redirectURIs"
        hint="console.clients.field.redirectURIsHint"
        value={values.redirectURIs}
        required
        invalid={invalid}
      />
      <TextField
        name="postLogoutRedirectURIs"
        label="console.clients.field.postLogoutRedirectURIs"
        hint="console.clients.field.postLogoutRedirectURIsHint"
        value={values.postLogoutRedirectURIs}
        invalid={invalid}
      />
      <TextField
        name="backchannelLogoutURI"
        label="console.clients.field.backchannelLogoutURI"
        hint="console.clients.field.backchannelLogoutURIHint"
        value={values.backchannelLogoutURI}
        invalid={invalid}
      />
      {registering ? (
        <>
          <div className="authd-field">
            <label htmlFor={typeId} className="authd-label">
              {t("console.clients.field.type")}
            </label>
            <select
              id={typeId}
              name="type"
              className="authd-input"
              defaultValue={values.isPublic ? "public" : "confidential"}
            >
              <option value="confidential">{t("console.clients.type.confidential")}</option>
              <option value="public">{t("console.clients.type.public")}</option>
            </select>
          </div>
          <div className="authd-field">
            <label htmlFor={algId} className="authd-label">
              {t("console.clients.field.idTokenAlg")}
            </label>
            <select id={algId} name="idTokenAlg" className="authd-input" defaultValue={values.idTokenAlg}>
              {["RS256", "ES256", "EdDSA"].map((alg) => (
                <option key={alg} value={alg}>
                  {alg}
                </option>
              ))}
            </select>
          </div>
        </>
      ) : null}
      <span className="authd-check">
        <input id={consentId} type="checkbox" name="skipConsent" value="yes" defaultChecked={values.skipConsent} />
        <label htmlFor={consentId}>{t("console.clients.field.skipConsent")}</label>
      </span>
    </>
  );
}

export const EMPTY_CLIENT_FORM: ConsoleClientFormValues = {
  name: "",
  redirectURIs: "",
  postLogoutRedirectURIs: "",
  backchannelLogoutURI: "",
  skipConsent: false,
  isPublic: false,
  idTokenAlg: "RS256",
};

// What the account page's sections share between the server's pages (src/http/pages/account-*.ts) and the
// hydrated ones: which field of a form each refusal belongs to (by the API's wire code), so a problem
// shows beside its field whether the form was posted or sent through the API.

export const EMAIL_FIELDS = {
  INVALID_EMAIL: "newEmail",
  EMAIL_IS_THE_SAME: "newEmail",
  COULDNT_UPDATE_YOUR_EMAIL: "newEmail",
};

export const PASSWORD_FIELDS = {
  INVALID_PASSWORD: "currentPassword",
  PASSWORD_TOO_SHORT: "newPassword",
  PASSWORD_TOO_LONG: "newPassword",
};

/** The delete section's and the re-authentication page's password field. */
export const PASSWORD_PROOF_FIELDS = { INVALID_PASSWORD: "password" };

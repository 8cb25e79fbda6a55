import { createAuthClient } from "authd/react";

export const authClient = createAuthClient({ baseURL: import.meta.env.VITE_AUTHD_URL ?? "http://localhost:3000" });

/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where authd runs, e.g. http://localhost:3000 (its AUTH_TRUSTED_ORIGINS must list this page's origin). */
  readonly VITE_AUTHD_URL?: string;
}

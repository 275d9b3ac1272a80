/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API; `/api` when the SPA and the API share an origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

// Vite's types for what it adds to the browser code: import.meta.glob (i18n/index.ts).
/// <reference types="vite/client" />

// knex's better-sqlite3 dialect, imported by path (knex.ts, read-thread.ts subclass it); knex
// types only its package root. A static import, not createRequire, so that a bundler takes it in.
declare module 'knex/lib/dialects/better-sqlite3/index.js' {
  const BetterSqlite3Dialect: unknown;
  export default BetterSqlite3Dialect;
}

/** Who is calling: every service function takes this first and scopes its queries by account. */
export interface Principal {
  readonly accountId: string;
  readonly keyId: string;
}

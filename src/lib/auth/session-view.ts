/** One row of 'Minhas sessões'. The handle names the session without revealing its id (half of the token). */
export interface SessionView {
  handle: string;
  browser: string;
  system: string;
  ipAddress: string | null;
  signedInAt: number;
  lastUsedAt: number;
  current: boolean;
}

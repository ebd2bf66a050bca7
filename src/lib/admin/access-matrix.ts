import type { Decision } from "../routes.ts";

/** One column of the matrix: someone holding only this role (or no role, or not signed in). */
export interface AccessColumn {
  key: string;
  label: string;
}

/** 'Quem acessa o quê', as the admin API answers it. */
export interface AccessMatrix {
  columns: AccessColumn[];
  /** Every page of the route table with the gate's decision for each column. */
  rows: { path: string; name: string; decisions: Record<string, Decision> }[];
}

/** One user's pages and through which role (or "Qualquer usuário conectado" / "Público"), read on demand (`?user=<id>`). */
export interface UserAccess {
  id: string;
  email: string;
  fullName: string;
  pages: { path: string; name: string; via: string[] }[];
}

import { dictionary } from "@zxcvbn-ts/language-common";
import { authFailure, type AuthFailure } from "../result.ts";
import { COMMON_PASSWORDS_PT_BR } from "./common-pt-br.ts";

/** How many of the ranked list count as "most common" (the list is ordered by frequency in leaks). */
const TOP_COUNT = 10_000;

export const COMMON_PASSWORD_MESSAGE = "Esta senha está entre as mais usadas e é fácil de adivinhar. Escolha outra senha.";

let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set([...dictionary["passwords-common"].slice(0, TOP_COUNT), ...COMMON_PASSWORDS_PT_BR]);
  return common;
}

/**
 * True when the password is a common one, ignoring case and the symbols added only to pass the
 * composition rule: `Password1!` and `Senha@123` count as `password1` and `senha123`.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const list = commonPasswords();
  return list.has(lower) || list.has(lower.replace(/[^\p{L}\p{N}]/gu, ""));
}

/** The refusal the forms show for a common password (on the password field), or null. */
export function refuseCommonPassword(password: string): AuthFailure | null {
  if (!isCommonPassword(password)) return null;
  return authFailure(400, "common_password", COMMON_PASSWORD_MESSAGE, { password: COMMON_PASSWORD_MESSAGE });
}

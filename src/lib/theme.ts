/** The reader's colour-scheme choice, remembered in this browser (localStorage) and applied as `<html data-theme>`. */

export const THEME_STORAGE_KEY = "b1-tema";

export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** Portuguese label of each choice, as shown on the header switch. */
export const THEME_LABELS: Record<ThemeChoice, string> = { light: "Claro", dark: "Escuro", system: "Sistema" };

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

/**
 * Runs in <head> before the first paint, so a stored choice never flashes the other scheme.
 * Kept as a literal string: the page's Content-Security-Policy allows it by the hash of exactly these bytes.
 */
export const APPLY_STORED_THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

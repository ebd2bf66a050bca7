import type { ReactNode } from "react";

export type AuthMode = "signin" | "signup" | "reset" | "update-password" | "confirm";

/** A text button that switches /auth to another form. */
export function ModeLink({ to, onMode, children }: { to: AuthMode; onMode: (mode: AuthMode) => void; children: ReactNode }) {
  return (
    <button type="button" className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-100" onClick={() => onMode(to)}>
      {children}
    </button>
  );
}

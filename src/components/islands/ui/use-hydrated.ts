import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true once the island runs. A form's
 * submit button stays disabled until then: before its island starts, a form is plain HTML with no
 * action, and Enter or a click would send it as a GET to the page itself, with what was typed in
 * the address, the history and the server's request log.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

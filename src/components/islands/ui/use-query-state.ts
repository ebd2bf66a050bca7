import { useCallback, useEffect, useState } from "react";

/**
 * A filter's value kept in the address (`?key=value`): read once the island starts, written with
 * replaceState on every change, so Back from another page and a shared link bring it back.
 * The fallback is the value the address leaves out.
 */
export function useQueryState(key: string, fallback = ""): [string, (value: string) => void] {
  const [value, setValue] = useState(fallback);
  useEffect(() => {
    const fromAddress = new URLSearchParams(window.location.search).get(key);
    if (fromAddress !== null) setValue(fromAddress);
  }, [key]);
  const update = useCallback(
    (next: string) => {
      setValue(next);
      const url = new URL(window.location.href);
      if (next === fallback) url.searchParams.delete(key);
      else url.searchParams.set(key, next);
      window.history.replaceState(window.history.state, "", url);
    },
    [key, fallback],
  );
  return [value, update];
}

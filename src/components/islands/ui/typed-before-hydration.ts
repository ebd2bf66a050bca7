import { useEffect, type RefObject } from "react";

/**
 * The server-rendered field can be typed into before the island starts; React then keeps its
 * initial state. On start, adopt what the reader already typed (or chose) so nothing is lost.
 */
export function useTypedBeforeHydration(
  field: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  value: string,
  onChange: (value: string) => void,
) {
  useEffect(() => {
    const typed = field.current?.value ?? value;
    if (typed !== value) onChange(typed);
    // Only once, at start: afterwards the state drives the field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

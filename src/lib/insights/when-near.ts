/**
 * Runs `then` once `element` comes within one viewport height below the visible area (at once when it
 * already is, or where IntersectionObserver is missing). The feedback form asks the server for the
 * person's vote only then, instead of on every page view.
 */
export function whenNear(element: Element, then: () => void): void {
  if (typeof IntersectionObserver !== "function") {
    then();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      then();
    },
    { rootMargin: "0px 0px 100% 0px" },
  );
  observer.observe(element);
}

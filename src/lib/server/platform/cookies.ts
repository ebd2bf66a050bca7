/** Reading one cookie from a Cookie header, where a second cookie of the same name may have been planted. */

/** What a Cookie header holds under one name: its value, none, or several (`conflict`, and no value). */
export interface CookieRead {
  value: string | null;
  /** More than one cookie of this name: one was planted beside ours (a sibling subdomain, a narrower path), and none is picked. */
  conflict: boolean;
}

/** Every value sent under exactly `name` (so `xb1_session` or `__Host-b1_session` is not `b1_session`). */
function cookieValues(cookieHeader: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of cookieHeader.split(";")) {
    const equals = pair.indexOf("=");
    if (equals !== -1 && pair.slice(0, equals).trim() === name) values.push(pair.slice(equals + 1).trim());
  }
  return values;
}

/** The one cookie named `name`; two of them (whatever their order, since a browser sends the narrower path first) give none. */
export function readOneCookie(cookieHeader: string | undefined | null, name: string): CookieRead {
  if (!cookieHeader?.includes(name)) return { value: null, conflict: false };
  const values = cookieValues(cookieHeader, name);
  if (values.length > 1) return { value: null, conflict: true };
  return { value: values[0] || null, conflict: false };
}

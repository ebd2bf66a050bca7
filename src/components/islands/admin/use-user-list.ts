import { useCallback, useEffect, useRef, useState } from "react";
import type { UserListAnswer } from "../../../lib/admin/types";
import { toast } from "../ui/toast";

const SEARCH_DELAY_MS = 250;

/** One page of the server's user list for a search (debounced), a role filter and a page number. */
export function useUserList(search: string, role: string, page: number) {
  const [query, setQuery] = useState(search);
  const [data, setData] = useState<UserListAnswer | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(search), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const load = useCallback(async () => {
    const request = ++latest.current;
    setLoading(true);
    const params = new URLSearchParams({ q: query.trim(), role, page: String(page) });
    try {
      const response = await fetch(`/api/admin/users?${params}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const body = (await response.json()) as UserListAnswer;
      // A slower, older answer never replaces a newer one.
      if (request === latest.current) setData(body);
    } catch {
      toast.error("Erro", { description: "Erro ao carregar usuários" });
    }
    if (request === latest.current) setLoading(false);
  }, [query, role, page]);

  useEffect(() => {
    void load();
  }, [load]);

  return { data, loading, reload: load, settled: query === search };
}

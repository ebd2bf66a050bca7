import { useEffect, useRef, useState } from "react";
import { emptyTrail, mergeTrails, type TrailState } from "../../../lib/trail/trail";
import { forgetTrailsExcept, readOwnTrail, writeOwnTrail } from "../../../lib/trail/storage";

export type TrailStatus = "loading" | "ready" | "unavailable" | "foreign";

interface ServerTrail {
  trail: Partial<TrailState> | null;
  owner: string;
}

/**
 * The signed-in person's trail: the server says whose page this is, then the browser copy of that
 * account (and only that one) is merged with the server copy; every change is kept in both.
 */
export function useTrailState(phaseIds: readonly string[]) {
  const [state, setState] = useState<TrailState>(emptyTrail);
  const [owner, setOwner] = useState<string | null>(null);
  const [status, setStatus] = useState<TrailStatus>("loading");
  const [saved, setSaved] = useState(false);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    let cancelled = false;
    fetch("/api/trail", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<ServerTrail>) : Promise.reject(new Error(String(response.status)))))
      .then((data) => {
        if (cancelled) return;
        forgetTrailsExcept(window.localStorage, data.owner);
        const local = readOwnTrail(window.localStorage, data.owner, phaseIds);
        const server = data.trail
          ? {
              completed: data.trail.completed ?? [],
              answers: data.trail.answers ?? {},
              projectName: data.trail.projectName ?? "",
              updatedAt: data.trail.updatedAt ?? 0,
            }
          : null;
        setState(mergeTrails(local, server));
        setOwner(data.owner);
        setStatus("ready");
      })
      .catch((error: unknown) => {
        console.log("Trilha: não foi possível carregar agora", error);
        if (!cancelled) setStatus("unavailable");
      });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (status !== "ready" || owner === null) return;
    writeOwnTrail(window.localStorage, owner, state);
    if (state.updatedAt === 0) return;
    clearTimeout(saveTimer.current);
    setSaved(false);
    saveTimer.current = setTimeout(() => {
      fetch("/api/trail", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...state, owner }) })
        .then((response) => {
          if (response.status === 409) setStatus("foreign");
          else if (response.ok) setSaved(true);
        })
        .catch((error: unknown) => console.log("Trilha: não foi possível salvar no servidor agora", error));
    }, 400);
  }, [state, owner, status]);

  return { state, setState, status, saved };
}

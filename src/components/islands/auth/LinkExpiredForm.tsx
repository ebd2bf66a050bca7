import { useRef, useState, type FormEvent } from "react";
import { AlertTriangle } from "lucide-react";
import { LINK_EXPIRED_MESSAGES } from "../../../lib/auth/link-expired-messages";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { useHydrated } from "../ui/use-hydrated";
import { useTypedBeforeHydration } from "../ui/typed-before-hydration";

interface Problem {
  title: string;
  hint: string;
}

/** /link-expired: asks for a new link (confirmation or password reset, from `?type=`). */
export default function LinkExpiredForm() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(field, email, setEmail);
  const hydrated = useHydrated();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setProblem({ title: LINK_EXPIRED_MESSAGES.required, hint: LINK_EXPIRED_MESSAGES.requiredHint });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const type = new URLSearchParams(window.location.search).get("type") === "password-reset" ? "password-reset" : "email-confirmation";
      const { status, body } = await sendJson<{ type?: string }>("/api/auth/resend-link", { email, type });
      if (status === 200) {
        window.location.assign(`/confirmation-sent?type=${body.type ?? type}`);
        return;
      }
      if (body.code === "invalid_domain")
        setProblem({ title: LINK_EXPIRED_MESSAGES.unauthorized, hint: LINK_EXPIRED_MESSAGES.unauthorizedHint });
      else setProblem({ title: "Erro", hint: body.error ?? UNEXPECTED_ERROR });
    } catch {
      setProblem({ title: "Erro", hint: UNEXPECTED_ERROR });
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4 text-left">
      <div>
        <label htmlFor="expired-email" className="mb-1 block text-sm font-medium">
          E-mail
        </label>
        <input
          ref={field}
          id="expired-email"
          type="email"
          autoComplete="email"
          value={email}
          disabled={busy}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? "expired-email-erro" : undefined}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 focus:border-brand-500 focus:ring-2 focus:ring-focus focus:outline-none dark:border-slate-600 dark:bg-slate-900"
        />
        {problem && (
          <div id="expired-email-erro" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
            <p className="flex items-center gap-1 font-semibold">
              <AlertTriangle className="size-4" aria-hidden="true" />
              {problem.title}
            </p>
            <p>{problem.hint}</p>
          </div>
        )}
      </div>
      <button
        type="submit"
        disabled={busy || !hydrated}
        className="w-full rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
      >
        {busy ? "Enviando..." : "Solicitar Novo Link"}
      </button>
    </form>
  );
}

import { useState, type FormEvent } from "react";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { FormField, SubmitButton } from "../ui/FormField";

/** The step after the password: the authenticator's code, or a recovery code. */
export default function TwoFactorCodeForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [expired, setExpired] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    setBusy(true);
    try {
      const { status, body } = await sendJson<{ next?: string }>("/api/auth/two-factor", { code });
      if (status === 200) {
        window.location.assign(body.next ?? "/");
        return;
      }
      setExpired(body.code === "challenge_expired");
      setError(body.fields?.code ?? body.error ?? UNEXPECTED_ERROR);
    } catch {
      setError(UNEXPECTED_ERROR);
    }
    setBusy(false);
  }

  if (expired) {
    return (
      <div className="space-y-4 text-center">
        <p role="alert">{error}</p>
        <a href="/auth" className="font-semibold text-brand-700 underline dark:text-brand-300">
          Voltar para o login
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <fieldset disabled={busy} className="space-y-4">
        <FormField
          id="two-factor-code"
          name="code"
          label="Código de verificação"
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
          error={error}
        />
        <SubmitButton busy={busy} label="Verificar" />
      </fieldset>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Sem o celular? Digite um dos códigos de recuperação que você guardou ao ativar a verificação.
      </p>
    </form>
  );
}

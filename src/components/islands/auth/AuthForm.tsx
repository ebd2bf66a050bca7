import { useState } from "react";
import { CircleCheck, MailWarning } from "lucide-react";
import { Toasts } from "../ui/toast";
import { ConfirmForm } from "./ConfirmForm";
import type { AuthMode } from "./ModeLink";
import { ResetForm } from "./ResetForm";
import { SignInForm } from "./SignInForm";
import { SignUpForm } from "./SignUpForm";
import { UpdatePasswordForm } from "./UpdatePasswordForm";

const SUBTITLES: Record<AuthMode, string> = {
  signup: "Crie sua conta com e-mail corporativo autorizado",
  signin: "Acesse sua conta",
  reset: "Digite seu e-mail para receber o link de recuperação",
  "update-password": "Defina sua nova senha",
  confirm: "Confirme seu e-mail",
};

interface QueryState {
  mode: AuthMode;
  token: string;
  next: string;
  error: string | null;
  errorDescription: string | null;
  confirmed: boolean;
}

function readQuery(): QueryState {
  const params = new URLSearchParams(window.location.search);
  const modeParam = params.get("mode");
  const mode: AuthMode =
    modeParam === "update-password" || modeParam === "signup" || modeParam === "reset" || modeParam === "confirm" ? modeParam : "signin";
  return {
    mode,
    token: params.get("token") ?? "",
    next: params.get("next") ?? "/",
    error: params.get("error"),
    errorDescription: params.get("error_description"),
    confirmed: params.get("confirmed") === "1",
  };
}

/** /auth: sign-in, sign-up, reset request, new password and e-mail confirmation, one form per mode. */
export default function AuthForm() {
  const [query] = useState(readQuery);
  const [mode, setMode] = useState<AuthMode>(query.mode);
  const [signedUp, setSignedUp] = useState(false);

  const go = (next: AuthMode) => {
    setMode(next);
    const url = new URL(window.location.href);
    url.search = next === "signin" ? "" : `?mode=${next}`;
    window.history.replaceState(null, "", url);
  };

  return (
    <div className="w-full max-w-md">
      <Toasts />
      <div className="mb-6 text-center">
        <h1 className="text-3xl font-bold">B1 Method Hub</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">Acesso restrito a usuários autorizados</p>
      </div>
      {query.error === "email_not_confirmed" && mode === "signin" && (
        <div role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
          <p className="flex items-center gap-2 font-semibold">
            <MailWarning className="size-5" aria-hidden="true" /> E-mail não confirmado
          </p>
          <p className="mt-1 text-sm">
            Você precisa confirmar seu e-mail antes de fazer login. Verifique sua caixa de entrada e clique no link de confirmação.
          </p>
        </div>
      )}
      {signedUp && mode === "signin" && (
        <div role="status" className="mb-4 rounded-lg border border-sky-300 bg-sky-50 p-4 dark:border-sky-700 dark:bg-sky-950">
          <p className="flex items-center gap-2 font-semibold">
            <MailWarning className="size-5" aria-hidden="true" /> Falta confirmar o e-mail
          </p>
          <p className="mt-1 text-sm">
            Abra o link que enviamos e digite a senha que você acabou de criar: só quem tem a caixa de entrada e a senha ativa a conta.
          </p>
        </div>
      )}
      {query.confirmed && mode === "signin" && (
        <div
          role="status"
          className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-700 dark:bg-emerald-950"
        >
          <p className="flex items-center gap-2 font-semibold">
            <CircleCheck className="size-5" aria-hidden="true" /> E-mail confirmado!
          </p>
          <p className="mt-1 text-sm">Entre com seu e-mail e senha para acessar o portal.</p>
        </div>
      )}
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <p className="mb-5 text-center font-medium">{SUBTITLES[mode]}</p>
        {mode === "signin" && <SignInForm next={query.next} onMode={go} />}
        {mode === "signup" && <SignUpForm onMode={go} onSignedUp={() => setSignedUp(true)} />}
        {mode === "reset" && <ResetForm onMode={go} />}
        {mode === "update-password" && <UpdatePasswordForm token={query.token} onMode={go} />}
        {mode === "confirm" && <ConfirmForm token={query.token} onMode={go} />}
        {query.error && query.error !== "email_not_confirmed" && (
          <p role="alert" className="mt-4 text-center text-sm text-red-600 dark:text-red-400">
            {query.errorDescription || "Ocorreu um erro durante a autenticação"}
          </p>
        )}
      </div>
    </div>
  );
}

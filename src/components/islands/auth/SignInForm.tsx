import { signInRules } from "../../../lib/auth/rules";
import { FormField, PasswordField, SubmitButton } from "../ui/FormField";
import { toast } from "../ui/toast";
import { useValidatedForm } from "../ui/use-validated-form";
import { ModeLink, type AuthMode } from "./ModeLink";
import { navigate, submitAuth } from "./submit-auth";

export function SignInForm({ next, onMode }: { next: string; onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(signInRules, (data) =>
    submitAuth<{ next?: string }>(
      "/api/auth/sign-in",
      { ...data, next },
      {
        success: 200,
        onSuccess: (body) => {
          toast.success("Login realizado com sucesso!");
          return navigate(body.next ?? "/");
        },
        onCode: { email_not_confirmed: () => window.location.assign("/auth?error=email_not_confirmed") },
      },
    ),
  );
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="signin-email" label="E-mail" type="email" autoComplete="email" error={errors.email} name="email" />
        <PasswordField id="signin-password" label="Senha" autoComplete="current-password" error={errors.password} name="password" />
        <SubmitButton busy={busy} label="Entrar" />
      </fieldset>
      <div className="flex flex-col items-center gap-2">
        <ModeLink to="reset" onMode={onMode}>
          Esqueci minha senha
        </ModeLink>
        <ModeLink to="signup" onMode={onMode}>
          Não tem uma conta? Cadastrar-se
        </ModeLink>
      </div>
    </form>
  );
}

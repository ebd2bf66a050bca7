import { signUpRules } from "../../../lib/auth/rules";
import { FormField, PasswordField, SubmitButton } from "../ui/FormField";
import { toast } from "../ui/toast";
import { useValidatedForm } from "../ui/use-validated-form";
import { ModeLink, type AuthMode } from "./ModeLink";
import { submitAuth } from "./submit-auth";

/** Refusals that have their own card on /signup-error. */
const toErrorPage = (code: string) => () => window.location.assign(`/signup-error?error=${code}`);

/** `onSignedUp` shows, on the sign-in form, that the link will ask for the password just chosen. */
export function SignUpForm({ onMode, onSignedUp }: { onMode: (mode: AuthMode) => void; onSignedUp: () => void }) {
  const { errors, busy, formProps } = useValidatedForm(signUpRules, (data) =>
    submitAuth("/api/auth/sign-up", data, {
      success: 201,
      onSuccess: () => {
        toast.success("Cadastro realizado!", { description: "Verifique seu e-mail para confirmar a conta antes de fazer login." });
        onSignedUp();
        onMode("signin");
      },
      onCode: {
        invalid_domain: toErrorPage("invalid_domain"),
        weak_password: toErrorPage("weak_password"),
        email_taken: toErrorPage("email_taken"),
      },
    }),
  );
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="signup-name" label="Nome completo" autoComplete="name" error={errors.fullName} name="fullName" />
        <FormField id="signup-email" label="E-mail corporativo" type="email" autoComplete="email" error={errors.email} name="email" />
        <p className="-mt-2 text-xs text-slate-500 dark:text-slate-400">Use seu e-mail corporativo autorizado.</p>
        <PasswordField id="signup-password" label="Senha" autoComplete="new-password" error={errors.password} name="password" />
        <PasswordField
          id="signup-confirm"
          label="Confirmar senha"
          autoComplete="new-password"
          error={errors.confirmPassword}
          name="confirmPassword"
        />
        <SubmitButton busy={busy} label="Cadastrar-se" />
      </fieldset>
      <div className="text-center">
        <ModeLink to="signin" onMode={onMode}>
          Já tem uma conta? Entrar
        </ModeLink>
      </div>
    </form>
  );
}

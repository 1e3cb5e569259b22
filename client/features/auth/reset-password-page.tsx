// PLACEHOLDER: set a new password via token (spec section 2, /reset-password).

export function ResetPasswordPage() {
  return (
    <main className="mx-auto w-full max-w-3xl p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Reset Password</h1>
    </main>
  );
}

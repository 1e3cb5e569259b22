// PLACEHOLDER: request a reset link (spec section 2, /forgot-password).

export function ForgotPasswordPage() {
  return (
    <main className="mx-auto w-full max-w-3xl p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Forgot Password</h1>
    </main>
  );
}

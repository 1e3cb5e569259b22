// PLACEHOLDER: e-mail verification by token (spec section 2, /verify-email).

export function VerifyEmailPage() {
  return (
    <main className="mx-auto w-full max-w-3xl p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Verify Email</h1>
    </main>
  );
}

// PLACEHOLDER: register, login and one-time-code modes (spec section 2, /auth).

export function AuthPage() {
  return (
    <main className="mx-auto w-full max-w-3xl p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sign In</h1>
    </main>
  );
}

// PLACEHOLDER: the three module cards with "Enter {module}" (spec section 2, / when signed in).

// Inside the signed-in shell, whose header holds the page h1.
export function DashboardPage() {
  return (
    <div className="mx-auto w-full max-w-5xl p-6">
      <h2 className="text-2xl font-semibold tracking-tight">Dashboard</h2>
    </div>
  );
}

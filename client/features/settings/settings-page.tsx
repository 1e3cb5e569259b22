// PLACEHOLDER: Profile and Security tabs (spec section 2, /settings).

// Inside the signed-in shell, whose header holds the page h1.
export function SettingsPage() {
  return (
    <div className="mx-auto w-full max-w-3xl p-6">
      <h2 className="text-2xl font-semibold tracking-tight">Settings</h2>
    </div>
  );
}

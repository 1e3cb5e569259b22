// PLACEHOLDER: messages, input, saved files, thinking and progress (spec section 2, /chat/{id}).

// Inside the signed-in shell, whose header holds the page h1.
export function ChatPage({ id }: { id: string }) {
  return (
    <div className="mx-auto w-full max-w-5xl p-6">
      <h2 className="text-2xl font-semibold tracking-tight">Chat</h2>
      <p className="text-sm text-muted-foreground">Chat {id}</p>
    </div>
  );
}

// The client loads the schemas of its answers with the first request (docs/decisions/0023): in
// the browser that is one small chunk; in vitest it is the contract transformed on first use,
// slower than a test's wait for the answer. Loaded once here, before the tests. The markdown
// renderer too (docs/decisions/0090): warmed only, so a component still goes through its
// fallback and shows the rendered markdown a moment later, as in the browser.
await Promise.all([
  import('@/components/markdown/markdown'),
  import('@contract/accounts'),
  import('@contract/chats'),
  import('@contract/errors'),
  import('@contract/files'),
  import('@contract/library'),
  import('@contract/notifications'),
  import('@contract/retention'),
  import('@contract/sso'),
  import('@contract/starters'),
]);

export {};

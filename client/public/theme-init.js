// Applies the stored theme before first paint so a dark user never sees a white flash.
// A file, not an inline script, so the server's CSP (script-src 'self') allows it.
// Mirrors components/theme/theme-provider.tsx (key vite-ui-theme; light | dark | system).
(function () {
  try {
    var t = localStorage.getItem('vite-ui-theme');
    if (t !== 'light' && t !== 'dark') {
      t = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    }
    document.documentElement.classList.add(t);
  } catch {
    // No storage or matchMedia: the React provider still applies the theme on mount.
  }
})();

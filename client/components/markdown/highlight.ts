import type { HighlighterCore } from 'shiki/core';

/**
 * Syntax highlighting for code blocks in model answers, loaded only when a block first needs it
 * (shiki's core, the JavaScript regex engine: no WebAssembly), so the chat route's bundle does
 * not carry it. Each language's grammar is its own chunk, fetched on first use.
 */

const LANGS = {
  bash: () => import('shiki/langs/bash.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  csv: () => import('shiki/langs/csv.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  r: () => import('shiki/langs/r.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
} as const;
type Lang = keyof typeof LANGS;

const ALIASES: Record<string, Lang> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  py: 'python',
  md: 'markdown',
  yml: 'yaml',
  htm: 'html',
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
};

/** The grammar a fence's language names, or null (the block stays plain). */
export function languageOf(name: string | undefined): Lang | null {
  const key = (name ?? '').trim().toLowerCase();
  if (key in LANGS) return key as Lang;
  return ALIASES[key] ?? null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<Lang, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark] =
      await Promise.all([
        import('shiki/core'),
        import('shiki/engine/javascript'),
        import('shiki/themes/github-light-high-contrast.mjs'),
        import('shiki/themes/github-dark-high-contrast.mjs'),
      ]);
    return createHighlighterCore({
      themes: [light.default, dark.default],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  return highlighter;
}

/**
 * The block as highlighted HTML (shiki escapes the code), light and dark colours as CSS variables.
 * The high-contrast GitHub themes: the plain ones' keywords reach 4.1:1 on the block's muted
 * background at its small size, under WCAG's 4.5:1.
 */
export async function highlight(code: string, lang: Lang): Promise<string> {
  const h = await getHighlighter();
  let ready = loaded.get(lang);
  if (!ready) {
    ready = LANGS[lang]().then((m) => h.loadLanguage(m.default));
    loaded.set(lang, ready);
  }
  await ready;
  return h.codeToHtml(code, {
    lang,
    themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
    defaultColor: false,
  });
}

import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';
export const THEME_CHOICES: readonly ThemeChoice[] = ['light', 'dark', 'system'];

const STORAGE_KEY = 'fieldassist-theme';
// The header's colour in the browser's chrome, per palette (index.css --background).
const THEME_COLOURS = { light: '#ffffff', dark: '#020618' } as const;
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return THEME_CHOICES.includes(stored as ThemeChoice) ? (stored as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

let choice = readChoice();

function resolve(): 'light' | 'dark' {
  return choice === 'system' ? (systemDark.matches ? 'dark' : 'light') : choice;
}

/** Puts the chosen palette on the page: `.dark` on <html> (index.css), form controls and the browser's bar. */
export function applyTheme(): void {
  const resolved = resolve();
  const root = document.documentElement;
  root.classList.toggle('dark', resolved === 'dark');
  root.style.colorScheme = resolved;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLOURS[resolved]);
  for (const listener of listeners) listener();
}

/** Light, dark or (the default) what the system says; kept on this device. */
export function setThemeChoice(next: ThemeChoice): void {
  choice = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  applyTheme();
}

systemDark.addEventListener('change', () => choice === 'system' && applyTheme());
window.addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEY) return;
  choice = readChoice();
  applyTheme();
});

const subscribe = (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener));

/** The user's choice and the palette it gives now; re-renders when either changes (also from another tab). */
export function useTheme(): { choice: ThemeChoice; resolved: 'light' | 'dark' } {
  const current = useSyncExternalStore(subscribe, () => choice);
  const resolved = useSyncExternalStore(subscribe, resolve);
  return { choice: current, resolved };
}

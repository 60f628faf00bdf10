import { vi } from 'vitest';

/** A tab the app opened with `window.open`, as far as a test can see it. */
export interface OpenedTab {
  /** Where the app sent it; '' while it shows its own text. */
  url: string;
  text: string;
  closed: boolean;
  /** Whether the tab could still reach the app's window. */
  hasOpener: boolean;
}

/**
 * Stands in for `window.open` (jsdom has none): each call opens a fake tab and
 * records it; the app sends it on with `location.replace`.
 */
export function stubWindowOpen(): OpenedTab[] {
  const tabs: OpenedTab[] = [];
  vi.spyOn(window, 'open').mockImplementation((url?: string | URL) => {
    const seen: OpenedTab = { url: url ? String(url) : '', text: '', closed: false, hasOpener: true };
    tabs.push(seen);
    const tab = {
      set opener(value: unknown) {
        seen.hasOpener = value !== null;
      },
      document: {
        title: '',
        body: {
          set textContent(text: string) {
            seen.text = text;
          },
        },
      },
      location: {
        replace(to: string) {
          seen.url = to;
        },
      },
      close() {
        seen.closed = true;
      },
    };
    return tab as unknown as Window;
  });
  return tabs;
}
